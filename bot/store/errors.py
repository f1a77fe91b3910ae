"""The store's errors: the only exceptions a store raises (any backend).

A driver's own error never leaves a store: it reaches the caller as a
``StoreUnavailableError`` whose ``__cause__`` is the driver's exception.
"""

from __future__ import annotations


class StoreError(Exception):
    """The database can't be used as it is. The store raises only these: a driver's
    own error reaches a caller as a ``StoreUnavailableError`` (its ``__cause__``)."""


class StoreUnavailableError(StoreError):
    """The database could not be read or written just now (locked, disk full, I/O
    error, read-only, not a database): nothing was applied."""


class SchemaTooNewError(StoreError):
    """The file was written by a newer program, with migrations this one doesn't know."""


class CorruptRowError(StoreError):
    """A stored row whose values have the wrong types (written by hand or by a bug)."""


class StoreReadOnlyError(StoreUnavailableError):
    """The database can be read but not written (a read-only file, folder or disk): found
    when the store opens, so nothing is played that could not be saved, or later, when a
    write is refused (and applied nothing)."""


class StoreBusyError(StoreUnavailableError):
    """The database stayed locked (another connection's transaction, a stalled disk) for
    longer than a call may wait: the call gave up and applied nothing."""


class StoreFullError(StoreUnavailableError):
    """The disk (or the database's size limit) is full: the write applied nothing."""


class StoreMissingError(StoreUnavailableError):
    """The database file was deleted while the program ran: nothing is read or written
    until a file is back at its path (restored from a backup), which is then opened."""
