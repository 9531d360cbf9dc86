table-trump = Trump: { $card }
table-stock = Stock: { $n }
table-discard = Discard: { $n }
table-attacking = attacks
table-defending = defends
table-throwing = throws in
table-out = out, place { $place }
table-idle = 🤖 a bot plays
table-on-table = On the table:
table-empty-table = The table is empty.
table-first-move = The lowest trump ({ $card }) opens: { $name }.
table-turn-attack = { $name } attacks — { $limit }
table-turn-defend = { $name } defends — { $limit }
table-turn-throw = Throwing in: { $names } — { $limit }
table-turn-throw-one = Throwing in: { $name } — { $limit }
table-until = until { $time }
table-last-actions = Last moves:
act-open = { $name } attacks with { $cards }
act-throw = { $name } throws in { $cards }
act-beat = { $name } beats { $target } with { $card }
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
end-fool = 🃏 Game over. The fool is { $name }!
end-fools = 🃏 Game over. The fools are { $names }!
end-draw = 🤝 A draw: no fool, everyone wins.
end-surrendered = { $name } surrendered.
end-places = Places:
end-pogony =
    { $n ->
         [one] 🎖 { $fool } gets pogony (shoulder straps) from { $givers }
        *[other] 🎖 { $fool } gets pogony (shoulder straps) from { $givers }
    }
closed-removed = The game is stopped: I was removed from the group “{ $title }”.
closed-stopped = The game is stopped: the table in “{ $title }” was closed.
closed-table = 🃏 The table was closed with /stop; the game is stopped.
closed-broken = The game could not be restored after the bot restarted and has been called off, sorry. The table is open again: /durak shows it, and a new game can start there.
