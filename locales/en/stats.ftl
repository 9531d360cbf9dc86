stats-title = 📊 <b>Chat statistics</b>
stats-empty = No game has been finished in this chat yet.
stats-line = { $place }. { $name } — { $games }, wins: { $wins }, fool: { $fools }{ $pogony }, rating { $rating }
stats-mine = 📊 Your statistics in this chat: { $games }, wins: { $wins }, fool: { $fools }, draws: { $draws }{ $pogony }, rating { $rating }.
stats-pogony = , pogony: { $given } given, { $received } received
stats-none = You have no finished games in this chat yet.
me-title = 📊 <b>Your statistics</b>
me-none = You have not finished a game yet. Add me to a group and open a table: /durak
me-chat = <b>{ $title }</b>: { $games }, { $wins }, { $fools }, { $draws }{ $pogony }; rating { $rating }{ $place }.
me-place = , place { $place } of { $players }
me-total = In all: { $games }, { $wins }, { $fools }, { $draws }{ $pogony }.
me-untitled = untitled chat
me-wins =
    { $n ->
         [one] { $n } win
        *[other] { $n } wins
    }
me-fools =
    { $n ->
         [one] the fool { $n } time
        *[other] the fool { $n } times
    }
me-draws =
    { $n ->
         [one] { $n } draw
        *[other] { $n } draws
    }
