table-trump = Козырь: { $card }
table-stock = В колоде: { $n }
table-discard = В отбое: { $n }
table-attacking = ходит
table-defending = отбивается
table-throwing = подкидывает
table-out = без карт, { $place }-е место
table-idle = 🤖 играет бот
table-on-table = На столе:
table-empty-table = На столе пусто.
table-first-move = Первым ходит тот, у кого младший козырь ({ $card }): { $name }.
table-turn-attack = Ходит { $name } — { $limit }
table-turn-defend = Отбивается { $name } — { $limit }
table-turn-throw = Подкидывают: { $names } — { $limit }
table-turn-throw-one = Подкидывает { $name } — { $limit }
table-until = до { $time }
table-last-actions = Последние ходы:
act-open = { $name } ходит { $cards }
act-throw = { $name } подкидывает { $cards }
act-beat = { $name } бьёт { $target } картой { $card }
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
end-fools = 🃏 Партия окончена. Дураки — { $names }!
end-draw = 🤝 Ничья: дурака нет, выиграли все.
end-surrendered = Сдача: { $name }.
end-places = Места:
end-pogony =
    { $n ->
         [one] 🎖 { $fool } получает погоны — вешает { $givers }
         [few] 🎖 { $fool } получает погоны — вешают { $givers }
        *[many] 🎖 { $fool } получает погоны — вешают { $givers }
    }
closed-removed = Партия остановлена: меня удалили из группы «{ $title }».
closed-stopped = Партия остановлена: стол в группе «{ $title }» закрыли.
closed-table = 🃏 Стол закрыт командой /stop — партия остановлена.
closed-broken = Партию не удалось восстановить после перезапуска бота, и она прервана — простите. Стол снова открыт: /durak покажет его, там можно начать новую партию.
