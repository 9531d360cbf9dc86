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
speed-normal = normal speed (30/10 s)
speed-fast = fast game (15/5 s)
bots-novice = Novice
bots-expert = Expert
bots-master = Master
errors-failed = Something went wrong. Please try again.
