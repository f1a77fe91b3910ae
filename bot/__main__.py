"""``python -m bot``: run the Discord bot (the same as ``reel bot``)."""

from .cli import main

raise SystemExit(main(["bot", *__import__("sys").argv[1:]]))
