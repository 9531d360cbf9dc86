# The command line: durak play. "You" is the person playing.
cli-you = You
cli-bot = Bot { $n }
cli-open = { $who ->
    [you] You lead
   *[other] { $name } leads
  }: { $cards }
cli-throw = { $who ->
    [you] You throw in
   *[other] { $name } throws in
  } { $cards }
cli-transfer = { $who ->
    [you] You pass it on
   *[other] { $name } passes it on
  }: { $cards }
cli-show = { $who ->
    [you] You pass it on
   *[other] { $name } passes it on
  }, showing the trump { $cards }
cli-beat = { $who ->
    [you] You beat
   *[other] { $name } beats
  }: { $card } on { $target }
cli-take = { $name }: "I take"
cli-done = { $name }: "Done"
cli-pass = { $name }: "Pass"
cli-quit = { $who ->
    [you] You give up
   *[other] { $name } gives up
  }
cli-accuse = { $name }: "Cheat!" against { $accused }
cli-taken = { $who ->
    [you] You take
   *[other] { $name } takes
  } { $n ->
    [one] { $n } card
   *[other] { $n } cards
  }
cli-discarded = Done: the cards go to the discard pile
cli-drew = { $who ->
    [you] You draw
   *[other] { $name } draws
  } { $n ->
    [one] { $n } card
   *[other] { $n } cards
  }
cli-left = { $who ->
    [you] You are out
   *[other] { $name } is out
  }: place { $place }
cli-caught = Caught! { $name } takes the cards on the table
cli-missed = Wrong: { $name } plays fair
cli-draw = A draw: no fool, everyone wins
cli-fool = The fool: { $names }
cli-fools = The fools: { $names }
cli-trump = Trump { $card } ({ $suit }), { $stock } in the stock, { $discard } discarded
cli-player = { $name }: { $n ->
    [one] { $n } card
   *[other] { $n } cards
  }
cli-attacks = { $who ->
    [you] lead
   *[other] leads
  }
cli-defends = { $who ->
    [you] defend
   *[other] defends
  }
cli-out = out of cards
cli-on-table = On the table: { $pairs }
cli-hand = Your cards: { $cards }
cli-option-open = lead { $cards }
cli-option-throw = throw in { $cards }
cli-option-transfer = pass it on with { $cards }
cli-option-show = pass it on, showing the trump { $cards }
cli-option-beat = beat: { $card } on { $target }
cli-option-accuse = "Cheat!" against { $accused }
cli-option-take = "I take"
cli-option-done = "Done"
cli-option-pass = "Pass"
cli-option-none = throw in nothing
cli-option-quit = give up
cli-ask = Type the number of a move.
