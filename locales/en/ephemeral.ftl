# Cards in the group itself: an ephemeral message only its receiver sees.
eph-button = 🃏 My cards
eph-not-player = Only this game's players see cards here, and you are not playing in it.
eph-game-over = The game is over.
eph-shown = Your cards are at the bottom of the chat; only you see them.
eph-in-private = Telegram did not show your cards here. They are in your private chat with the bot: play from there.
eph-refused-start = Telegram did not show your cards here. Press "My cards" again to open the chat with the bot; your cards will come there.
eph-mode-admin = 🃏 Cards right here: the bot shows them to you alone when it is your turn.
eph-mode-button = 🃏 Cards: the “My cards” button on the table (see /help).
eph-mode-private = 🃏 Your cards come to your private chat with the bot.
eph-joined-here = You have a seat! Your cards stay in this group: once the game starts, press “🃏 My cards” on the table; only you will see them.
