"""``reel bot``: the Discord bot (``bot.discord_bot``), and beside it the web board when
``REEL_WEB_PORT`` is set: this module puts the two front ends together in one process
(the Discord adapter never imports the web board)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import DEFAULT_DB_PATH, Config
from .options import DB_HELP, db_path, named_by, no_folder

if TYPE_CHECKING:
    from ..discord_bot.app import Beside


def add_bot_command(sub: Any) -> None:
    """``reel bot [--sync-global] [--db PATH]``."""
    bot = sub.add_parser(
        "bot",
        help="run the Discord bot (needs DISCORD_TOKEN)",
        description="Run the Discord bot: every player's game is kept in the database, "
        "so a restart loses nothing. Settings come from the environment or .env.",
    )
    bot.add_argument(
        "--sync-global",
        action="store_true",
        help="publish the slash commands to every server (takes up to an hour to show)",
    )
    bot.add_argument("--db", metavar="PATH", help=DB_HELP)


def run_bot_command(args: argparse.Namespace, config: Config) -> int:
    """Run ``reel bot`` (also ``reel`` alone with a Discord token) until it stops."""
    on_postgres = config.database_url is not None and not getattr(args, "db", None)
    path = db_path(args, config)
    if not on_postgres and no_folder("bot", path, named_by(args, config)):
        return 1
    from ..discord_bot.app import run_bot

    if getattr(args, "db", None):  # --db: that SQLite file, whatever the settings say
        config = config.with_db_file(Path(path), "--db")
    return run_bot(config, sync_global=getattr(args, "sync_global", False), beside=_web(config))


def _web(config: Config) -> Beside | None:
    """The web board to run beside the bot (``REEL_WEB_PORT``), or None."""
    if config.web_port is None:
        return None
    from ..web.local import ActivitySettings, beside_bot, kept_secret

    if config.session_secret is not None:
        secret = config.session_secret.encode()
    else:  # made once, kept beside the database (the data folder, for PostgreSQL)
        folder = DEFAULT_DB_PATH.parent if config.database_url else config.db_path.parent
        secret = kept_secret(folder)
    activity = ActivitySettings(
        client_id=config.discord_client_id,
        client_secret=config.discord_client_secret,
        bot_token=config.discord_token,
        api_base=config.discord_api,
        secret=secret,
        mock=config.activity_mock,
        public_url=config.web_public_url,
    )
    return beside_bot(config.web_host, config.web_port, config.web_local_user, activity)
