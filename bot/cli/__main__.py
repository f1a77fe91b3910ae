"""``python -m bot.cli``: the ``reel`` command (``bot.cli.main``)."""

from . import main

raise SystemExit(main())
