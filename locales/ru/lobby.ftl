lobby-title = 🃏 <b>Стол для игры в дурака</b>
lobby-pairs = парами
lobby-no-pairs = каждый сам за себя
lobby-threes = командами по трое
lobby-rules = Правила…
lobby-seats-title = Места:
lobby-empty-seat = — свободно —
lobby-bot-seat = 🤖 { $name }
lobby-creator = Создатель стола — { $name }.
lobby-join = Сесть за стол
lobby-leave = Выйти
lobby-add-bot = Добавить бота
lobby-start = Начать
lobby-again = Ещё партию
lobby-set-deck = Колода: { $n }
lobby-set-pairs = { $on ->
        [yes] Пары: да
       *[no] Пары: нет
    }
lobby-set-speed = ⏱ { $n } с на ход
lobby-closed = Стол закрыт.
lobby-bots = 🤖 Боты: { $level }
lobby-moved = Стол переехал ниже ↓
lobby-no-table = Стола сейчас нет. Откройте его командой /durak или словом «дурак» — настройки будут в сообщении стола.
lobby-settings-playing =
    Идёт партия. Настройки стола:
    { $settings }
    Поменять их можно после партии — снова командой /settings.
lobby-set-mode-podkidnoy = Подкидной
lobby-set-mode-perevodnoy = Переводной
lobby-set-threes = { $on ->
        [yes] Команды: да
       *[no] Команды: нет
    }
lobby-set-throw-in-all = Подкидывают все
lobby-set-throw-in-neighbors = Подкидывают соседи
lobby-set-bots = 🤖 { $level }
lobby-team = {" "}· команда { $n }
answer-joined = Вы за столом!
answer-left = Вы вышли из-за стола.
answer-already-seated = Вы уже за этим столом.
answer-not-seated = Вас нет за этим столом.
answer-again-not-seated = «Ещё партию» начинают те, кто сидит за столом. Чтобы сесть, напишите /durak.
answer-again-old = Эти итоги уже не последние: сыграть ещё можно из последнего сообщения стола — оно ниже — или командой /durak.
answer-table-full = Свободных мест нет.
answer-seats-taken = Мест не может быть меньше, чем игроков за столом.
answer-other-table = Вы уже за другим столом — в чате «{ $title }». Одновременно можно сидеть только за одним.
answer-need-private = Сначала откройте чат со мной и нажмите «Запустить» — туда придут ваши карты.
answer-only-creator = Это может только создатель стола.
answer-stop-who = Закрыть стол может его создатель — { $name } — или администратор группы.
answer-stop-unchecked = Не получилось узнать у Telegram, администратор ли вы. Попробуйте /stop ещё раз чуть позже.
answer-bad-link = Эта ссылка никуда не ведёт: такого стола нет или его уже закрыли. Открыть стол можно командой /durak в группе.
answer-not-member = За этот стол садятся только участники группы «{ $title }».
answer-member-unchecked = Не получилось узнать у Telegram, состоите ли вы в группе. Попробуйте ещё раз чуть позже.
answer-need-two = Нужно хотя бы два игрока.
answer-bad-settings = Так нельзя: { $reason }
answer-stale = Кнопка устарела: игра уже ушла дальше.
answer-already-made = Ход уже сделан.
answer-no-table = Стола больше нет.
answer-now = Теперь: { $value }.
answer-option-on = «{ $name }»: включено.
answer-option-off = «{ $name }»: выключено.
answer-ok = Готово.
answer-settings-moved = Настройки только что изменило другое нажатие. Посмотрите, какие они теперь, и нажмите ещё раз, если нужно.
answer-cannot-leave = Пока у вас на руках карты, выйти из-за стола нельзя. Можно сдаться — кнопкой «Сдаться» в личном чате со мной.
answer-playing = Идёт партия — это можно будет сделать после неё.
answer-left-game = Вы вышли из-за стола и можете сесть за другой.
answer-preset = Выбрано: «{ $name }».
answer-preset-changed = Выбрано: «{ $name }» — теперь { $changes }.
answer-rules-creator = Правила меняет только создатель стола. Какие они сейчас — /rules.
answer-joined-here = Вы за столом в группе «{ $title }», место { $seat } из { $seats }. Когда партия начнётся, карты придут сюда, в этот чат.
reason-deck-players = колода в { $cards } — для { $low }–{ $high } игроков
reason-pairs-players = игра командами — для четырёх (пары) или шести (по трое) игроков
reason-preset-players = «{ $preset }» — игра для { $players } игроков. Чтобы играть иначе, нажмите «Правила…» и выберите «Классику».
reason-preset-deck = в «{ $preset }» играют колодой в { $cards }. Чтобы играть иначе, нажмите «Правила…» и выберите «Классику».
reason-preset-mode = «{ $preset }» — только { $mode }. Чтобы играть иначе, нажмите «Правила…» и выберите «Классику».
reason-no-trump-fixed = в бескозырной игре не бывает постоянного козыря — выключите одно из двух
reason-simple-after-take = в простом дураке и так не подкидывают — «Без подкида после „Беру“» тут ни к чему
reason-simple-order = в простом дураке не подкидывают, поэтому и порядок подкидывания не нужен — оставьте «Подкидывают в любом порядке»
reason-transfer-only = это правило переводного — сначала переключите режим
reason-rules = такое сочетание правил не играется
