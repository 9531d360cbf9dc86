cards =
    { $n ->
         [one] { $n } карта
         [few] { $n } карты
        *[many] { $n } карт
    }
seconds =
    { $n ->
         [one] { $n } секунда
         [few] { $n } секунды
        *[many] { $n } секунд
    }
games =
    { $n ->
         [one] { $n } партия
         [few] { $n } партии
        *[many] { $n } партий
    }
seats =
    { $n ->
         [one] { $n } место
         [few] { $n } места
        *[many] { $n } мест
    }
mode-podkidnoy = подкидной
mode-perevodnoy = переводной
throw-in-all = подкидывают все
throw-in-neighbors = подкидывают соседи
speed-normal = ⏱ { $move } с на ход, { $throw } с на подкидывание
speed-fast = ⏱ Быстрая игра: { $move } с на ход, { $throw } с на подкидывание
bots-novice = Новичок
bots-expert = Опытный
bots-master = Мастер
errors-failed = Что-то пошло не так. Попробуйте ещё раз.
and = { $first } и { $last }
zone-msk = мск
