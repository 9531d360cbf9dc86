stats-title = 📊 <b>Chat statistics</b>
stats-empty = No game has been finished in this chat yet.
stats-line = { $place }. { $name } — { $counts }, rating { $rating }
stats-mine = 📊 Your statistics in this chat: { $counts }, rating { $rating }.
stats-pogony = pogony: { $given } given, { $received } received
stats-none = You have no finished games in this chat yet.
stats-rating = A newcomer's rating is { $base }: wins raise it, losses lower it.
me-title = 📊 <b>Your statistics</b>
me-none = You have not finished a game yet. Add me to a group and open a table: /durak
me-chat = <b>{ $title }</b>: { $counts }; rating { $rating }{ $place }.
me-place = , place { $place } of { $players }
me-total = In all: { $counts }.
me-untitled = untitled chat
me-wins =
    { $n ->
        [0] no wins
        [one] { $n } win
       *[other] { $n } wins
    }
me-fools =
    { $n ->
        [0] never the fool
        [one] the fool once
       *[other] the fool { $n } times
    }
me-draws =
    { $n ->
        [one] { $n } draw
       *[other] { $n } draws
    }
