# When the bot lost its database for a while, the time for the move is extended (service/outage.py).
outage-time-added = ⏱ The bot was unavailable for { $outage }, so the time for this move was extended: { $left } left.
