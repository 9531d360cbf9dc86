"""``durak``, the terminal front end: a game against computer players, or simulations.
Like the bot, it reads its texts through ``locales`` (``locales/<lang>/cli.ftl``)."""
