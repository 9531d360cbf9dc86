cards =
    { $n ->
         [one] { $n } card
        *[other] { $n } cards
    }
seconds =
    { $n ->
         [one] { $n } second
        *[other] { $n } seconds
    }
games =
    { $n ->
         [one] { $n } game
        *[other] { $n } games
    }
seats =
    { $n ->
         [one] { $n } seat
        *[other] { $n } seats
    }
mode-podkidnoy = throw-in
mode-perevodnoy = transfer
throw-in-all = everyone throws in
throw-in-neighbors = neighbours throw in
speed-normal = ⏱ { $move } s to move, { $throw } s to throw in
speed-fast = ⏱ Fast game: { $move } s to move, { $throw } s to throw in
bots-novice = Novice
bots-expert = Expert
bots-master = Master
errors-failed = Something went wrong. Please try again.
and = { $first } and { $last }
zone-msk = MSK
