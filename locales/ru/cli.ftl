# Командная строка: durak play. «Вы» — сам играющий, с глаголом во втором лице.
cli-you = Вы
cli-bot = Бот { $n }
cli-open = { $who ->
    [you] Вы ходите
   *[other] { $name } ходит
  }: { $cards }
cli-throw = { $who ->
    [you] Вы подкидываете
   *[other] { $name } подкидывает
  } { $cards }
cli-transfer = { $who ->
    [you] Вы переводите
   *[other] { $name } переводит
  }: { $cards }
cli-show = { $who ->
    [you] Вы переводите
   *[other] { $name } переводит
  }, показав козырь { $cards }
cli-beat = { $who ->
    [you] Вы отбиваетесь
   *[other] { $name } отбивается
  }: { $card } на { $target }
cli-take = { $name }: «Беру»
cli-done = { $name }: «Бито»
cli-pass = { $name }: «Пас»
cli-quit = { $who ->
    [you] Вы сдаётесь
   *[other] { $name } сдаётся
  }
cli-accuse = { $name }: «Антимухлёж» против игрока { $accused }
cli-taken = { $who ->
    [you] Вы забираете
   *[other] { $name } забирает
  } { $n ->
    [one] { $n } карту
    [few] { $n } карты
   *[many] { $n } карт
  }
cli-discarded = Бито: карты уходят в отбой
cli-drew = { $who ->
    [you] Вы добираете
   *[other] { $name } добирает
  } { $n ->
    [one] { $n } карту
    [few] { $n } карты
   *[many] { $n } карт
  }
cli-left = { $who ->
    [you] Вы выходите
   *[other] { $name } выходит
  } из игры: { $place }-е место
cli-caught = Поймали! { $name } забирает карты со стола
cli-missed = Мимо: { $name } играет честно
cli-draw = Ничья: дурака нет, выиграли все
cli-fool = Дурак — { $names }
cli-fools = Дураки — { $names }
cli-trump = Козырь { $card } ({ $suit }), в колоде { $stock }, в отбое { $discard }
cli-player = { $name }: { $n ->
    [one] { $n } карта
    [few] { $n } карты
   *[many] { $n } карт
  }
cli-attacks = { $who ->
    [you] ходите
   *[other] ходит
  }
cli-defends = { $who ->
    [you] отбиваетесь
   *[other] отбивается
  }
cli-out = без карт
cli-on-table = На столе: { $pairs }
cli-hand = Ваши карты: { $cards }
cli-option-open = сходить { $cards }
cli-option-throw = подкинуть { $cards }
cli-option-transfer = перевести { $cards }
cli-option-show = перевести, показав козырь { $cards }
cli-option-beat = побить: { $card } на { $target }
cli-option-accuse = «Антимухлёж» против игрока { $accused }
cli-option-take = «Беру»
cli-option-done = «Бито»
cli-option-pass = «Пас»
cli-option-none = ничего не подкидывать
cli-option-quit = сдаться
cli-ask = Введите номер хода.
