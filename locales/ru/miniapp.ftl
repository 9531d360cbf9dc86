# The Mini App page: the table drawn as cards (bot/miniapp/).
miniapp-title = Дурак
miniapp-connecting = Подключаемся к столу…
miniapp-lobby = Партия ещё не началась: ждём игроков.
miniapp-spectator = Вы смотрите партию.
miniapp-stock = Колода
miniapp-discard = Бито
miniapp-trump = Козырь
miniapp-your-cards = Ваши карты
miniapp-choose = Как сходить?
miniapp-cancel = Отмена
miniapp-seconds-unit = с
miniapp-lost = Связь со столом потеряна — переподключаемся…
miniapp-role-attack = ходит
miniapp-role-defend = отбивается
miniapp-role-throw = подкидывает
miniapp-role-out = вне игры
miniapp-move-a = Пойти: { $cards }
miniapp-move-t = Подкинуть { $cards }
miniapp-move-d = Побить { $target } картой { $cards }
miniapp-move-x = Перевести картой { $cards }
miniapp-move-s = Перевести, показав козырь { $cards }
miniapp-move-take = Беру
miniapp-move-done = Бито
miniapp-move-pass = Пас
miniapp-move-quit = Сдаться
miniapp-move-back = Вернуть управление
miniapp-move-accuse = Антимухлёж: { $name }
miniapp-you-attack = Ваш ход — нажмите карту.
miniapp-you-defend = Отбивайтесь — или «Беру».
miniapp-you-throw = Можно подкинуть — или «Бито».
miniapp-turn-attack = Ходит { $name }.
miniapp-turn-defend = Отбивается { $name }.
miniapp-turn-throw =
    { $n ->
         [one] Подкидывает { $name }.
         [few] Подкидывают { $name }.
        *[many] Подкидывают { $name }.
    }
miniapp-over-fool = Партия окончена. Дурак — { $name }!
miniapp-over-draw = Партия окончена: ничья, дурака нет.
miniapp-refused-stale = Игра ушла вперёд, пока вы выбирали: посмотрите на стол ещё раз.
miniapp-refused-illegal = Так сходить сейчас нельзя.
miniapp-refused-over = Партия уже закончилась.
miniapp-refused-no-game = Эта партия уже не идёт.
miniapp-refused-not-seated = Вы не играете за этим столом — только смотрите.
miniapp-refused-not-your-seat = Это ход за другого игрока: так нельзя.
miniapp-refused-bad-request = Страница прислала непонятный ход. Обновите её.
miniapp-auth-missing = Откройте стол из Telegram: кнопкой под сообщением стола или у своих карт.
miniapp-auth-forged = Не удалось подтвердить, что это вы. Откройте стол заново из Telegram.
miniapp-auth-expired = Ссылка устарела. Откройте стол заново из Telegram.
miniapp-auth-no-user = Не удалось подтвердить, что это вы. Откройте стол заново из Telegram.
miniapp-auth-tampered = Такого стола нет. Откройте стол заново из Telegram.
miniapp-auth-no-table = Этот стол уже закрыт.
miniapp-auth-not-seated = Стол показывается только тем, кто за ним сидит.
miniapp-open = 🎴 Открыть стол
