"""What the service keeps in memory per player: a bounded cache, and the locks that put
one player's calls in line."""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")


class Recent(Generic[V]):
    """At most ``size`` values by player, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("cache_size must be at least 1")
        self._size = size
        self._values: OrderedDict[int, V] = OrderedDict()

    def get(self, user_id: int) -> V | None:
        value = self._values.get(user_id)
        if value is not None:
            self._values.move_to_end(user_id)
        return value

    def put(self, user_id: int, value: V) -> None:
        self._values[user_id] = value
        self._values.move_to_end(user_id)
        while len(self._values) > self._size:
            self._values.popitem(last=False)

    def drop(self, user_id: int) -> None:
        self._values.pop(user_id, None)

    def clear(self) -> None:
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)


class PlayerLocks:
    """One lock per player: calls for one player run one at a time, calls for different
    players side by side. A lock lives while some call holds or awaits it, then goes."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, user_id: int) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[user_id] = lock
        return lock

    def __len__(self) -> int:
        """The locks alive: held or awaited."""
        return len(self._locks)
