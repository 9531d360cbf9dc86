cmd-open = Open a table
cmd-rules = This table's rules
cmd-settings = Table settings
cmd-stats = Chat statistics
cmd-stop = Close the table
cmd-start = Start
cmd-help = Help
cmd-mystats = My statistics
help-private =
    Hi! I run Durak games in group chats. Add me to a group and send /durak there: a table opens. Your cards will come here.
    Here too: /me for your results in every chat.
help-group =
    <b>What I do in a group</b>
    /durak: open a table; its message holds the settings and the seats
    /settings: show the table again, at the bottom of the chat
    /rules: the rules of this table
    /stats: the chat's results; /me: yours
    /stop: close the table (its creator or an admin)
help-cards-private = Your cards come to your private chat with me: open it and press “Start”.
help-cards-button = Cards right here: “🃏 My cards” on the table shows them to you alone. Make me an admin of the group and I will show everyone their cards myself when it is their turn.
help-cards-admin = Cards right here: “🃏 My cards” on the table shows them to you alone, and I show them myself when it is your turn.
help-rules =
    <b>Rules</b>
    Everyone gets 6 cards; the card under the stock shows the trump. The holder of the lowest trump attacks first.
    You attack the player on your left with one card or several of one rank. The defender beats each card with a higher card of its suit or with a trump; a trump falls only to a higher trump.
    The others may throw in cards of ranks already on the table: never more cards than the defender held, and at most 6 (5 before the first “Done”).
    Cannot defend? “Take”: you take the table and miss your turn. All beaten? “Done”: the cards are discarded and the defender attacks next.
    After each bout everyone draws up to 6, the attacker first and the defender last. Once the stock is empty, whoever runs out of cards wins; the last one holding cards is the fool.
help-rules-podkidnoy = This table plays throw-in Durak: no transfers.
help-rules-perevodnoy = This table plays transfer Durak: before any card is beaten, the defender may add a card of the same rank and pass the attack on, if the next player holds enough cards.
