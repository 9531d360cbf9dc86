table-trump = Козырь: { $card }
table-stock = В колоде: { $n }
table-discard = В отбое: { $n }
table-no-cards = без карт
table-attacking = ходит
table-defending = отбивается
table-beaten-all = всё побито
table-throwing = подкидывает
table-out = без карт, { $place }-е место
table-idle = 🤖 играет бот
table-on-table = На столе:
table-empty-table = На столе пусто.
table-first-move = Первым ходит тот, у кого младший козырь ({ $card }): { $name }.
table-last-actions = Последние ходы:
table-turn-attack = ⏳ <b>Ходит { $name } · { $until }</b>
table-turn-defend = ⏳ <b>Отбивается { $name } · { $until }</b>
table-turn-throw = ⏳ <b>Подкидывают { $name } · { $until }</b>
table-turn-throw-one = ⏳ <b>Подкидывает { $name } · { $until }</b>
table-turn-closing = ⏳ <b>Кон закрывается · { $until }</b>
table-until = до{ "\u00A0" }{ $time }
table-per-move = { $seconds } с на ход
table-seconds = { $seconds } с
table-closing = 🕵 Ещё можно «Антимухлёж».
table-over = 🏁 <b>Партия окончена</b> — итоги ниже.
table-fixed-trump = Козырь: всегда { $suit } (открыта { $card })
table-no-trump = Без козырей (открыта { $card })
table-teams = Команды: { $first } против { $second }
table-place = { $place }-е место
table-draw = ничья
table-surrendered = 🏳 сдаётся
table-fool = 🃏 дурак
table-won = победа
act-open = { $name } ходит { $cards }
act-throw = { $name } подкидывает { $cards }
act-beat = { $name }: { $card } на { $target }
act-transfer = { $name } переводит { $cards }
act-show = { $name } переводит, показав { $cards }
act-take = { $name }: «Беру»
act-done = { $name }: «Бито»
act-pass = { $name }: «Пас»
act-quit = { $name } сдаётся
act-back = { $name } снова в игре
act-auto = {" "}(время вышло)
act-accuse-caught = 🕵 { $name }: «Антимухлёж» против игрока { $accused } — поймали! { $accused } забирает карты.
act-accuse-missed = 🕵 { $name }: «Антимухлёж» против игрока { $accused } — мимо: { $accused } играет честно. До конца кона { $name } не может снова обвинить этого игрока.
end-fool = 🃏 Партия окончена. Дурак — { $name }!
end-fool-surrendered = 🃏 Партия окончена: { $name } сдаётся и остаётся в дураках.
end-draw = 🤝 Ничья: дурака нет, выиграли все.
end-places = Места:
end-pogony =
    { $n ->
         [one] 🎖 { $fool } получает погоны — вешает { $givers }
         [few] 🎖 { $fool } получает погоны — вешают { $givers }
        *[many] 🎖 { $fool } получает погоны — вешают { $givers }
    }
end-team = 🃏 Партия окончена. Победили { $won }, в дураках — { $lost }.
end-team-surrendered = 🃏 Партия окончена: { $name } сдаётся. Победили { $won }, в дураках — { $lost }.
end-score = Счёт: { $score }
closed-removed = Партия остановлена: меня удалили из группы «{ $title }».
closed-stopped = Партия остановлена: стол в группе «{ $title }» закрыли.
closed-table = 🃏 Стол закрыт командой /stop — партия остановлена.
closed-broken = Партию не удалось восстановить после перезапуска бота, и она прервана — простите. Стол снова открыт: /durak покажет его, там можно начать новую партию.
table-cards-here =
    { $n ->
        [one] 🃏 { $names }, ваши карты — по кнопке «Мои карты» ниже.
        [few] 🃏 { $names }: ваши карты — по кнопке «Мои карты» ниже.
        [many] 🃏 { $names }: ваши карты — по кнопке «Мои карты» ниже.
       *[other] 🃏 { $names }: ваши карты — по кнопке «Мои карты» ниже.
    }
