"""``reel web``: play in a browser, with no Discord: the web board (``bot.web``) for one
local player on the SQLite save the terminal game uses, at http://127.0.0.1:8080/.

The store is opened here (the web board imports the service, never the store), as
``reel play`` opens it; the game is the terminal's player's, so a game left at the
prompt goes on in the browser and back."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

from ..config import Config
from ..web.local import DEFAULT_HOST, DEFAULT_PORT
from .options import DB_HELP, db_path, named_by, no_folder


def add_web_command(sub: Any) -> None:
    """``reel web [--host H] [--port P] [--open] [--db PATH]``."""
    web = sub.add_parser(
        "web",
        help="play in your browser (drag and drop), at http://127.0.0.1:8080/",
        description="Serve the web board for one local player, no Discord and no sign-in: "
        "the same saved game as 'reel play'. It prints the address to open.",
    )
    web.add_argument("--host", default=DEFAULT_HOST,
                     help=f"the address to listen on (default {DEFAULT_HOST}: this computer "
                     "only)")  # fmt: skip
    web.add_argument("--port", type=_port, default=DEFAULT_PORT,
                     help=f"the port (default {DEFAULT_PORT}; 0: any free one)")  # fmt: skip
    web.add_argument("--open", action="store_true", help="open the board in your browser")
    web.add_argument("--db", metavar="PATH", help=DB_HELP)


def _port(text: str) -> int:
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return int(text)


def run_web_command(args: argparse.Namespace, config: Config) -> int:
    """Run ``reel web`` until Ctrl-C; the exit code (1 if the save or the port can't be had)."""
    path = db_path(args, config)
    if no_folder("web", path, named_by(args, config)):
        return 1
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    return asyncio.run(_serve(Path(path), args.host, args.port, args.open, config.hint_deadline))


async def _serve(
    path: Path, host: str, port: int, open_browser: bool, hint_deadline: float | None
) -> int:
    from ..service import DatabaseUnavailableError, open_service
    from ..web.local import serve

    try:
        service = await open_service(path, hint_deadline=hint_deadline)
    except DatabaseUnavailableError as exc:
        print(f"reel web: cannot open the database {str(path)!r}: {exc}", file=sys.stderr)
        return 1
    try:
        return await serve(service, host, port, open_browser=open_browser)
    finally:
        await service.close()
