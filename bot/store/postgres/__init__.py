"""The PostgreSQL backend of the store: ``PostgresStore``, its schema and its migrations
(``migrations/``, numbered as the SQLite backend's: docs/storage.md, "PostgreSQL")."""

from .schema import MIGRATIONS, SCHEMA_VERSION
from .store import POOL_SIZE, PostgresStore, safe_url

__all__ = ["MIGRATIONS", "POOL_SIZE", "SCHEMA_VERSION", "PostgresStore", "safe_url"]
