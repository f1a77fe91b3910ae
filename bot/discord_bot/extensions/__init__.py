"""The bot's extensions, one a feature, in the order ``app.ReelBot.setup_hook`` loads them.

discord.py's ``load_extension`` runs an extension's module afresh (a new module object
in ``sys.modules``) and ``unload_extension`` (every ``Bot.close``) takes it out of
``sys.modules`` again. So an extension here is only the name of its feature's ``setup``
and ``teardown``: the feature's module (``races``, ``watching``...), with its classes,
constants and cog, is imported once, like any other, however many bots start and stop
in one process (the tests start many), and is the same module every other one imports.
"""

from typing import Final

EXTENSIONS: Final = tuple(
    f"{__name__}.{name}"
    for name in (
        "commands",  # first: the /reel group the others add to
        "boards",
        # the features with subcommands, in the order of the group's payload
        "races",
        "launch",
        "replays",
        "watching",
        "leaderboards",
        "practice",
        "reminders",
    )
)
