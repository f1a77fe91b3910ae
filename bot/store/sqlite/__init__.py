"""The SQLite backend of the store: ``SQLiteStore``, its schema and its migrations."""

from ..rows import finished_params
from .schema import MIGRATIONS, SCHEMA_VERSION, Migration
from .store import BUSY_TIMEOUT_MS, PRAGMAS, SQLiteStore, backup_file

__all__ = [
    "BUSY_TIMEOUT_MS",
    "MIGRATIONS",
    "PRAGMAS",
    "SCHEMA_VERSION",
    "Migration",
    "SQLiteStore",
    "backup_file",
    "finished_params",
]
