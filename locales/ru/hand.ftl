answer-not-your-game = Вы не играете в этой партии.
answer-no-game = Такой партии нет — возможно, она уже закончилась.
answer-not-now = Сейчас так сходить нельзя.
answer-closing = Всё побито, кон закрывается: ходить больше нельзя, можно только нажать «Антимухлёж».
answer-closing-defender = Вы отбились, кон закрывается: ходить больше нельзя.
answer-game-over = Партия уже закончилась.
answer-choose-target = Какую карту побить?
answer-caught = Поймали! { $name } забирает карты со стола.
answer-missed = Мимо: { $name } играет честно. До конца кона обвинить этого игрока снова нельзя.
answer-not-your-turn-attack = Сейчас не ваш ход: ходит { $name }.
answer-not-your-turn-defend = Сейчас не ваш ход: отбивается { $name }.
answer-not-your-turn-throw = Сейчас не ваш ход: подкидывает { $name }.
answer-not-your-turn-throw-many = Сейчас не ваш ход: подкидывают { $name }.
answer-all-beaten = Всё уже побито — ждём, подкинут ли ещё.
answer-does-not-beat = { $card } не бьёт { $target }.
answer-beats-nothing = { $card } не бьёт ни одну карту на столе.
answer-throw-limit = Больше подкидывать в этот кон нельзя.
answer-wrong-rank = { $card } не подкинуть: карт этого достоинства на столе нет.
answer-not-markable = С { $card } ходить вместе нечем: других карт этого достоинства у вас нет.
hand-trump = Козырь: { $card }
hand-fixed-trump = Козырь: { $suit } (открыта { $card })
hand-no-trump = Без козырей (открыта { $card })
hand-stock-empty = колода пуста
hand-on-table = На столе: { $cards }
hand-seconds = { $n } с
hand-may-throw = Можно подкидывать.
hand-you-attack = <b>Ваш ход</b> — нажмите карту.
hand-you-defend = <b>Отбивайтесь</b> — или «Беру».
hand-you-defend-transfer =
    <b>Отбивайтесь</b>, переводите (↪)
    или нажмите «Беру».
hand-you-throw = <b>Подкидывайте</b> — или «{ $word }».
hand-nothing-to-throw = Подкинуть нечего — «{ $word }».
hand-you-wait = Ждём других игроков.
hand-wait-attack = Ходит { $name }.
hand-wait-defend = Отбивается { $name }.
hand-wait-throw = { $name } подкидывает.
hand-wait-many = Ждём: { $names }.
hand-bout = { $attacker } ходит, { $defender } отбивается.
hand-bout-taking = { $defender } берёт.
hand-closing = <b>Всё побито</b> — кон закрывается.
hand-closing-word =
    <b>Всё побито</b> — кон закрывается.
    Последний шанс: «Антимухлёж»,
    иначе — «{ $word }».
hand-closing-may-accuse =
    <b>Всё побито</b> — кон закрывается.
    Ещё можно нажать «Антимухлёж».
hand-closing-defender =
    <b>Вы отбились</b> — кон закрывается.
    Ещё могут нажать «Антимухлёж».
hand-you-out = У вас не осталось карт — вы вышли из игры. Итоги будут в группе.
hand-you-out-may-leave = У вас не осталось карт — вы вышли из игры. Можно досмотреть партию или выйти из-за стола и сесть за другой.
hand-game-over = Партия окончена — итоги в группе.
hand-leave = Выйти из-за стола
hand-idle =
    🤖 За вас играет бот.
    Чтобы ходить самостоятельно,
    нажмите «Вернуть управление».
hand-take = Беру
hand-done = Бито
hand-pass = Пас
hand-transfer = ↪ { $card }
hand-show = ↪ показать { $card }
hand-several = Несколько карт
hand-open-marked = Ходить ({ $n })
hand-mark-page = Отметьте карты одного достоинства и нажмите «Ходить».
hand-more-page = Сдаться? Партия сразу закончится, и дураком будете вы.
hand-more-page-team = Сдаться? Партия сразу закончится, и в дураках будет ваша команда.
hand-surrender = Сдаться
hand-back = Вернуть управление
hand-cancel = Назад
hand-beat-target = Побить { $target }
hand-nudge-attack = ⏰ Ваш ход — ходите, { $n } с
hand-nudge-defend = ⏰ Ваш ход — отбивайтесь, { $n } с
hand-and = и
hand-stock = колода: { $n }
cheat-toggle = 🤫 Мухлёж
cheat-page = 🤫 <b>Мухлёж</b> — эти кнопки видите только вы. Положите любую карту на любую небитую или переведите картой другого достоинства. Но если, пока карты на столе, кто-то нажмёт против вас «Антимухлёж», вы заберёте всё со стола.
cheat-choose = 🤫 Куда положить { $card }?
cheat-card = 🤫 { $card }…
cheat-beat = 🤫 { $card } на { $target }
cheat-transfer = 🤫 Перевести { $card }
accuse-button = 🕵 Антимухлёж: { $name }
accuse-more = 🕵 Антимухлёж…
accuse-page = 🕵 Кого поймать на мухлеже? Если этот игрок мухлевал в этом коне, он заберёт всё со стола. Если нет — до конца кона вы не сможете снова его обвинить.
