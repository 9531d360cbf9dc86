# The Mini App page: the table drawn as cards (bot/miniapp/).
miniapp-title = Durak
miniapp-connecting = Connecting to the table…
miniapp-lobby = The game has not started yet: waiting for players.
miniapp-spectator = You are watching the game.
miniapp-stock = Deck
miniapp-discard = Discard
miniapp-trump = Trump
miniapp-your-cards = Your cards
miniapp-choose = Which move?
miniapp-cancel = Cancel
miniapp-seconds-unit = s
miniapp-lost = Lost the table — reconnecting…
miniapp-role-attack = attacks
miniapp-role-defend = defends
miniapp-role-throw = throws in
miniapp-role-out = out
miniapp-move-a = Attack: { $cards }
miniapp-move-t = Throw in { $cards }
miniapp-move-d = Beat { $target } with { $cards }
miniapp-move-x = Transfer with { $cards }
miniapp-move-s = Transfer by showing the trump { $cards }
miniapp-move-take = Take
miniapp-move-done = Done
miniapp-move-pass = Pass
miniapp-move-quit = Give up
miniapp-move-back = Take back control
miniapp-move-accuse = Call cheat: { $name }
miniapp-you-attack = Your move — tap a card.
miniapp-you-defend = Defend — or “Take”.
miniapp-you-throw = You may throw in — or “Done”.
miniapp-turn-attack = { $name } attacks.
miniapp-turn-defend = { $name } defends.
miniapp-turn-throw =
    { $n ->
         [one] { $name } may throw in.
        *[other] { $name } may throw in.
    }
miniapp-over-fool = The game is over. { $name } is the fool!
miniapp-over-draw = The game is over: a draw, no fool.
miniapp-refused-stale = The game moved on while you chose: look at the table again.
miniapp-refused-illegal = That move is not allowed now.
miniapp-refused-over = The game is over.
miniapp-refused-no-game = This game is no longer running.
miniapp-refused-not-seated = You do not play at this table — you are watching.
miniapp-refused-not-your-seat = That is another player's move: not allowed.
miniapp-refused-bad-request = The page sent a move it should not have. Reload it.
miniapp-auth-missing = Open the table from Telegram: with the button under the table's message or by your cards.
miniapp-auth-forged = Could not confirm it is you. Open the table again from Telegram.
miniapp-auth-expired = The link has expired. Open the table again from Telegram.
miniapp-auth-no-user = Could not confirm it is you. Open the table again from Telegram.
miniapp-auth-tampered = There is no such table. Open the table again from Telegram.
miniapp-auth-no-table = This table is closed.
miniapp-auth-not-seated = The table is shown only to those seated at it.
miniapp-open = 🎴 Open the table
