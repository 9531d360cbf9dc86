stats-title = 📊 <b>Статистика чата</b>
stats-empty = В этом чате ещё не доиграли ни одной партии.
stats-line = { $place }. { $name } — { $games }, побед: { $wins }, в дураках: { $fools }{ $pogony }, рейтинг { $rating }
stats-mine = 📊 Ваша статистика в этом чате: { $games }, побед: { $wins }, в дураках: { $fools }, ничьих: { $draws }{ $pogony }, рейтинг { $rating }.
stats-pogony = , погоны: выдано { $given }, получено { $received }
stats-none = У вас пока нет сыгранных партий в этом чате.
me-title = 📊 <b>Ваша статистика</b>
me-none = Вы ещё не доиграли ни одной партии. Добавьте меня в группу и откройте стол: /durak
me-chat = <b>{ $title }</b>: { $games }, { $wins }, { $fools }, { $draws }{ $pogony }; рейтинг { $rating }{ $place }.
me-place = {" "}— { $place }-е место из { $players }
me-total = Всего: { $games }, { $wins }, { $fools }, { $draws }{ $pogony }.
me-untitled = чат без названия
me-wins =
    { $n ->
         [one] { $n } победа
         [few] { $n } победы
        *[many] { $n } побед
    }
me-fools =
    { $n ->
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
