"""The game service: the one async API that both front ends (Discord and terminal) call.

Its rooms, one job each:

- ``contract``: the values the calls answer (``GameView``, ``HintView``, ...);
- ``errors``: the calls' refusals, each with its sentence for the player;
- ``games``: ``GameService``, the calls, coordinating the rooms below;
- ``starts``: its new games and dailies, and whether one would end a game in progress;
- ``entry``: a current game in memory, dealt or rebuilt from its stored row;
- ``movelist``: the stored move list, to text and back;
- ``game_views``: a game as the front ends show it (its ``GameView``);
- ``hints``: hints from the solver, and what they teach the game;
- ``dailies``: the daily deal of each date;
- ``proofs``: the solver's word on a new game's deal (winnable, or proven lost);
- ``rankings``: leaderboards and player figures, read-only;
- ``replays``, ``watching``, ``ghosts``: finished games move by move, spectators'
  rules, the daily's ghost (``docs/together.md``);
- ``pool`` and ``jobs``: the solver's worker processes and what runs there;
- ``cache``: the bounded per-player memory and the per-player locks;
- ``opening``: a front end's service over the database it is told (the store opened,
  its errors turned into ``DatabaseUnavailableError``): the front ends never import the
  store.

The daily challenge, the leaderboards and the figures are described in
``docs/daily.md``.
"""

from engine.solver.hints import HintSource

from ..store import MIN_GAMES_FOR_RATE, RacerStatus, RaceState
from .contract import (
    CONFIRM_UNDO,
    LOCAL_USER_ID,
    MAX_PAGE_SIZE,
    GameView,
    HintView,
    LeaderboardKind,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardScope,
    MoveChoice,
    PlayerStats,
    Settings,
    SettingsChange,
    format_duration,
    utcnow,
)
from .entry import undo_target
from .errors import (
    HINT_OVERTAKEN_MESSAGE,
    STALE_HINT_MESSAGE,
    BadInputError,
    Commands,
    CorruptGameError,
    DailyInProgressError,
    DailyUnavailableError,
    GameOverError,
    HintUnavailableError,
    MoveError,
    NoGameError,
    RaceError,
    ServiceError,
    StaleVersionError,
    StorageError,
)
from .games import GameService
from .movelist import encode_moves, move_tokens, replay
from .opening import DatabaseUnavailableError, describe_database, open_service

__all__ = [
    "CONFIRM_UNDO",
    "HINT_OVERTAKEN_MESSAGE",
    "LOCAL_USER_ID",
    "MAX_PAGE_SIZE",
    "MIN_GAMES_FOR_RATE",
    "STALE_HINT_MESSAGE",
    "BadInputError",
    "Commands",
    "CorruptGameError",
    "DailyInProgressError",
    "DailyUnavailableError",
    "DatabaseUnavailableError",
    "GameOverError",
    "GameService",
    "GameView",
    "HintSource",
    "HintUnavailableError",
    "HintView",
    "LeaderboardKind",
    "LeaderboardPage",
    "LeaderboardRow",
    "LeaderboardScope",
    "MoveChoice",
    "MoveError",
    "NoGameError",
    "PlayerStats",
    "RaceError",
    "RaceState",
    "RacerStatus",
    "ServiceError",
    "Settings",
    "SettingsChange",
    "StaleVersionError",
    "StorageError",
    "describe_database",
    "encode_moves",
    "format_duration",
    "move_tokens",
    "open_service",
    "replay",
    "undo_target",
    "utcnow",
]
