answer-not-your-game = You are not playing in this game.
answer-no-game = There is no such game: it may have ended.
answer-not-now = You cannot play that now.
answer-closing = All is beaten and the bout is closing: no more cards, only “Call cheat”.
answer-closing-defender = You have beaten everything and the bout is closing: no more moves.
answer-game-over = The game is over.
answer-choose-target = Which card do you beat?
answer-caught = Caught! { $name } takes the cards from the table.
answer-missed = Wrong: { $name } played fair. You cannot call them out again until this bout ends.
answer-not-your-turn-attack = It is not your turn: { $name } attacks.
answer-not-your-turn-defend = It is not your turn: { $name } defends.
answer-not-your-turn-throw = It is not your turn: { $name } may throw in.
answer-not-your-turn-throw-many = It is not your turn: { $name } may throw in.
answer-all-beaten = Everything is beaten: waiting for more throw-ins.
answer-does-not-beat = { $card } does not beat { $target }.
answer-beats-nothing = { $card } beats no card on the table.
answer-throw-limit = No more cards may be thrown in this bout.
answer-wrong-rank = { $card } cannot be thrown in: no card of its rank is on the table.
answer-not-markable = { $card } cannot open with others: you have no other card of its rank.
hand-trump = Trump: { $card }
hand-fixed-trump = Trump: { $suit } (turned up: { $card })
hand-no-trump = No trumps (turned up: { $card })
hand-stock-empty = stock: empty
hand-on-table = On the table: { $cards }
hand-seconds = { $n } s
hand-may-throw = You may throw in.
hand-you-attack = <b>Your move</b>: tap a card.
hand-you-defend = <b>Defend</b>, or “Take”.
hand-you-defend-transfer =
    <b>Defend</b>, transfer (↪)
    or press “Take”.
hand-you-throw = <b>Throw in</b>, or “{ $word }”.
hand-nothing-to-throw = Nothing to throw in: “{ $word }”.
hand-you-wait = Waiting for the others.
hand-wait-attack = { $name } to play.
hand-wait-defend = { $name } is defending.
hand-wait-throw = { $name } may throw in.
hand-wait-many = Waiting for: { $names }.
hand-bout = { $attacker } attacks, { $defender } defends.
hand-bout-taking = { $defender } takes.
hand-closing = <b>All beaten</b>: the bout closes.
hand-closing-word =
    <b>All beaten</b>: the bout closes.
    Last chance to call cheat,
    else press “{ $word }”.
hand-closing-may-accuse =
    <b>All beaten</b>: the bout closes.
    You may still call cheat.
hand-closing-defender =
    <b>All beaten</b>: the bout closes.
    Others may still call cheat.
hand-you-out = You have no cards left: you are out of the game. The result will be in the group.
hand-you-out-may-leave = You have no cards left: you are out of the game. Watch the rest or leave the table to join another one.
hand-game-over = The game is over: the result is in the group.
hand-leave = Leave the table
hand-idle =
    🤖 A bot plays for you.
    To play yourself, press
    “Take control back”.
hand-take = Take
hand-done = Done
hand-pass = Pass
hand-transfer = ↪ { $card }
hand-show = ↪ show { $card }
hand-several = Several cards
hand-open-marked = Attack ({ $n })
hand-mark-page = Mark cards of one rank, then press “Attack”.
hand-more-page = Surrender? The game ends at once, and you are the fool.
hand-more-page-team = Surrender? The game ends at once, and your team are the fools.
hand-surrender = Surrender
hand-back = Take control back
hand-cancel = Back
hand-beat-target = Beat { $target }
hand-nudge-attack = ⏰ Your move: attack, { $n } s
hand-nudge-defend = ⏰ Your move: defend, { $n } s
hand-and = and
hand-stock = stock: { $n }
cheat-toggle = 🤫 Cheat
cheat-page = 🤫 <b>Cheating</b>: only you see these buttons. Put any card on any unbeaten card, or transfer with a card of another rank. But if anyone calls cheat on you while the cards are on the table, you take them all.
cheat-choose = 🤫 Where do you put { $card }?
cheat-card = 🤫 { $card }…
cheat-beat = 🤫 { $card } on { $target }
cheat-transfer = 🤫 Transfer { $card }
accuse-button = 🕵 Call cheat: { $name }
accuse-more = 🕵 Call cheat…
accuse-page = 🕵 Whom do you call out? If that player cheated in this bout, they take everything on the table. If not, you cannot call them out again until the bout ends.
