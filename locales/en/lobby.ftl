lobby-title = 🃏 <b>A Durak table</b>
lobby-pairs = in pairs
lobby-no-pairs = every player for themselves
lobby-threes = in teams of three
lobby-rules = Rules…
lobby-seats-title = Seats:
lobby-empty-seat = — free —
lobby-bot-seat = 🤖 { $name }
lobby-creator = Table opened by { $name }.
lobby-join = Take a seat
lobby-leave = Leave
lobby-add-bot = Add a bot
lobby-start = Start
lobby-again = Play again
lobby-set-deck = Deck: { $n }
lobby-set-pairs = { $on ->
        [yes] Pairs: yes
       *[no] Pairs: no
    }
lobby-set-speed = ⏱ { $n } s a move
lobby-closed = The table is closed.
lobby-bots = 🤖 Bots: { $level }
lobby-moved = The table has moved below ↓
lobby-no-table = There is no table now. Open one with /durak: its message holds the settings.
lobby-settings-playing =
    A game is on. The table's settings:
    { $settings }
    You can change them after the game: send /settings again.
lobby-set-mode-podkidnoy = Throw-in
lobby-set-mode-perevodnoy = Transfer
lobby-set-threes = { $on ->
        [yes] Teams: yes
       *[no] Teams: no
    }
lobby-set-throw-in-all = Everyone throws in
lobby-set-throw-in-neighbors = Neighbours throw in
lobby-set-bots = 🤖 { $level }
lobby-team = {" "}· team { $n }
answer-joined = You are at the table!
answer-left = You left the table.
answer-already-seated = You are already at this table.
answer-not-seated = You are not at this table.
answer-again-not-seated = “Play again” is for those at the table. To take a seat, send /durak.
answer-again-old = These results are not the latest: play again from the table’s latest message below, or send /durak.
answer-table-full = No free seats.
answer-seats-taken = There cannot be fewer seats than players at the table.
answer-other-table = You already sit at another table, in “{ $title }”. One table at a time.
answer-need-private = First open a chat with me and press Start: your cards will come there.
answer-only-creator = Only the table's creator can do that.
answer-stop-who = The table can be closed by its creator, { $name }, or by a group admin.
answer-stop-unchecked = I could not ask Telegram whether you are an admin. Please try /stop again in a moment.
answer-bad-link = This link leads nowhere: there is no such table, or it was closed. Open a table with /durak in a group.
answer-not-member = Only members of “{ $title }” can sit at this table.
answer-member-unchecked = I could not ask Telegram whether you are in the group. Please try again in a moment.
answer-need-two = At least two players are needed.
answer-bad-settings = Not possible: { $reason }
answer-stale = This button is out of date: the game has moved on.
answer-already-made = That move is already made.
answer-no-table = The table is gone.
answer-now = Now: { $value }.
answer-option-on = “{ $name }”: on.
answer-option-off = “{ $name }”: off.
answer-ok = Done.
answer-settings-moved = The settings were just changed by another press. Check them and press again if you still want to.
answer-cannot-leave = You cannot leave the table while you hold cards. You may surrender: press “Surrender” in your private chat with me.
answer-playing = A game is on: this can wait until it ends.
answer-left-game = You left the table and may join another one.
answer-preset = Chosen: { $name }.
answer-preset-changed = { $name } chosen: now { $changes }.
answer-rules-creator = Only the table's creator changes the rules. To see them, send /rules.
answer-joined-here = You are at the table in “{ $title }”, seat { $seat } of { $seats }. When the game starts, your cards will come here, to this chat.
reason-deck-players = a deck of { $cards } is for { $low } to { $high } players
reason-pairs-players = teams need four players (pairs) or six (teams of three)
reason-preset-players = { $preset } is a game for { $players } players. To play otherwise, press Rules… and choose Classic.
reason-preset-deck = { $preset } is played with { $cards }. To play otherwise, press Rules… and choose Classic.
reason-preset-mode = { $preset } is { $mode } only. To play otherwise, press Rules… and choose Classic.
reason-no-trump-fixed = a game without trumps cannot have a fixed trump: turn one of them off
reason-simple-after-take = the simple game has no throw-in anyway, so “no throw-in after Take” means nothing
reason-simple-order = the simple game has no throw-in, so it needs no throw-in order: leave it at “Anyone throws in”
reason-transfer-only = this rule is for transfer Durak: switch the mode first
reason-rules = these rules cannot be played together
