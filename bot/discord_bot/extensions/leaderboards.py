"""The leaderboards extension: a leaderboard's paging buttons (``leaderboards.Leaderboards``)."""

from ..leaderboards import setup, teardown

__all__ = ["setup", "teardown"]
