table-trump = Trump: { $card }
table-stock = Stock: { $n }
table-discard = Discard: { $n }
table-no-cards = no cards
table-attacking = attacks
table-defending = defends
table-beaten-all = beat it all
table-throwing = throws in
table-out = out, place { $place }
table-idle = 🤖 a bot plays
table-on-table = On the table:
table-empty-table = The table is empty.
table-first-move = The lowest trump ({ $card }) opens: { $name }.
table-last-actions = Last moves:
table-turn-attack = ⏳ <b>{ $name } to lead · { $until }</b>
table-turn-defend = ⏳ <b>{ $name } to defend · { $until }</b>
table-turn-throw = ⏳ <b>{ $name } may throw in · { $until }</b>
table-turn-throw-one = ⏳ <b>{ $name } may throw in · { $until }</b>
table-turn-closing = ⏳ <b>The bout is closing · { $until }</b>
table-until = until{ "\u00A0" }{ $time }
table-per-move = { $seconds } s a move
table-seconds = { $seconds } s
table-closing = 🕵 Last chance to call cheat.
table-over = 🏁 <b>The game is over</b>: the result is below.
table-fixed-trump = Trumps: always { $suit } (turned up: { $card })
table-no-trump = No trumps (turned up: { $card })
table-teams = Teams: { $first } vs { $second }
table-place = place { $place }
table-draw = a draw
table-surrendered = 🏳 gave up
table-fool = 🃏 the fool
table-won = won
act-open = { $name } attacks with { $cards }
act-throw = { $name } throws in { $cards }
act-beat = { $name }: { $card } on { $target }
act-transfer = { $name } transfers with { $cards }
act-show = { $name } transfers by showing { $cards }
act-take = { $name }: “I take”
act-done = { $name }: “Done”
act-pass = { $name }: “Pass”
act-quit = { $name } surrenders
act-back = { $name } is back
act-auto = {" "}(time ran out)
act-accuse-caught = 🕵 { $name } calls cheat on { $accused }: caught! { $accused } takes the cards.
act-accuse-missed = 🕵 { $name } calls cheat on { $accused }: wrong, { $accused } played fair. { $name } cannot call them out again until this bout ends.
end-fool = 🃏 Game over. The fool: { $name }!
end-fool-surrendered = 🃏 Game over: { $name } gives up and is the fool.
end-draw = 🤝 A draw: no fool, everyone wins.
end-places = Places:
end-pogony =
    { $n ->
         [one] 🎖 { $fool } gets pogony (shoulder straps) from { $givers }
        *[other] 🎖 { $fool } gets pogony (shoulder straps) from { $givers }
    }
end-team = 🃏 Game over. { $won } won, the fools are { $lost }.
end-team-surrendered = 🃏 Game over: { $name } gives up. { $won } won, the fools are { $lost }.
end-score = Score: { $score }
closed-removed = The game is stopped: I was removed from the group “{ $title }”.
closed-stopped = The game is stopped: the table in “{ $title }” was closed.
closed-table = 🃏 The table was closed with /stop; the game is stopped.
closed-broken = The game could not be restored after the bot restarted and has been called off, sorry. The table is open again: /durak shows it, and a new game can start there.
table-cards-here =
    { $n ->
        [one] 🃏 { $names }, your cards are behind “My cards” below.
       *[other] 🃏 { $names }: your cards are behind “My cards” below.
    }
