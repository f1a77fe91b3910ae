"""The store: the only package that speaks SQL (docs/storage.md).

- ``records`` and ``errors``: the contract, what callers see of any backend;
- ``api``: ``GameStore``, the abstract store the service calls;
- ``rows``: the columns read and the row readers both backends share (their schemas
  store the same values the same way);
- ``sqlite``: the SQLite backend, ``SQLiteStore``; its schema is the numbered
  ``.sql`` files of ``sqlite/migrations/``;
- ``postgres``: the PostgreSQL backend, ``PostgresStore``, with its own folder of
  migrations, version for version.

Neither backend imports the other's modules. ``Store`` is the SQLite store,
under the name callers have always used; code that only calls the store's
operations should take a ``GameStore``.
"""

from .api import GameStore, RaceStore
from .errors import (
    CorruptRowError,
    SchemaTooNewError,
    StoreBusyError,
    StoreError,
    StoreFullError,
    StoreMissingError,
    StoreReadOnlyError,
    StoreUnavailableError,
)
from .records import (
    GAME_STATUSES,
    MIN_GAMES_FOR_RATE,
    OUTCOMES,
    CurrentGame,
    DailyDeal,
    DailyResult,
    FinishedGame,
    GameStart,
    GameStatus,
    GameUpdate,
    Outcome,
    PeriodResult,
    PlayerTotals,
    RaceRecord,
    RaceRow,
    RacerRow,
    RacerStatus,
    RaceState,
    SettingsCheck,
    Totals,
    UserSettings,
    computer_id,
)
from .sqlite import (
    BUSY_TIMEOUT_MS,
    MIGRATIONS,
    PRAGMAS,
    SCHEMA_VERSION,
    Migration,
    SQLiteStore,
    finished_params,
)

Store = SQLiteStore

__all__ = [
    "BUSY_TIMEOUT_MS",
    "GAME_STATUSES",
    "MIGRATIONS",
    "MIN_GAMES_FOR_RATE",
    "OUTCOMES",
    "PRAGMAS",
    "SCHEMA_VERSION",
    "CorruptRowError",
    "CurrentGame",
    "DailyDeal",
    "DailyResult",
    "FinishedGame",
    "GameStart",
    "GameStatus",
    "GameStore",
    "GameUpdate",
    "Migration",
    "Outcome",
    "PeriodResult",
    "PlayerTotals",
    "RaceRecord",
    "RaceRow",
    "RaceState",
    "RaceStore",
    "RacerRow",
    "RacerStatus",
    "SQLiteStore",
    "SchemaTooNewError",
    "SettingsCheck",
    "Store",
    "StoreBusyError",
    "StoreError",
    "StoreFullError",
    "StoreMissingError",
    "StoreReadOnlyError",
    "StoreUnavailableError",
    "Totals",
    "UserSettings",
    "computer_id",
    "finished_params",
]
