stats-title = 📊 <b>Статистика чата</b>
stats-empty = В этом чате ещё не доиграли ни одной партии.
stats-line = { $place }. { $name } — { $counts }, рейтинг { $rating }
stats-mine = 📊 Ваша статистика в этом чате: { $counts }, рейтинг { $rating }.
stats-pogony = погоны: выдано { $given }, получено { $received }
stats-none = У вас пока нет сыгранных партий в этом чате.
stats-rating = Рейтинг новичка — { $base }: победы его поднимают, поражения опускают.
me-title = 📊 <b>Ваша статистика</b>
me-none = Вы ещё не доиграли ни одной партии. Добавьте меня в группу и откройте стол: /durak
me-chat = <b>{ $title }</b>: { $counts }; рейтинг { $rating }{ $place }.
me-place = {" "}— { $place }-е место из { $players }
me-total = Всего: { $counts }.
me-untitled = чат без названия
me-wins =
    { $n ->
        [0] ни одной победы
        [one] { $n } победа
        [few] { $n } победы
       *[many] { $n } побед
    }
me-fools =
    { $n ->
        [0] ни разу в дураках
        [one] в дураках { $n } раз
        [few] в дураках { $n } раза
       *[many] в дураках { $n } раз
    }
me-draws =
    { $n ->
        [one] { $n } ничья
        [few] { $n } ничьи
       *[many] { $n } ничьих
    }
