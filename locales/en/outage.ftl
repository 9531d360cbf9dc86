# When the bot lost its database for a while, the time for the move is extended
# (service/outage.py): the table and the mover's hand say so until the next move.
outage-added = ⏱ The move got { $seconds } s more: the bot was unavailable.
