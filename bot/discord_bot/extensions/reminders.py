"""The reminders extension: the streak reminders, on shard 0 (``reminders.StreakReminders``)."""

from ..reminders import setup, teardown

__all__ = ["setup", "teardown"]
