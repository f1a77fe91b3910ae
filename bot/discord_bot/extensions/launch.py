"""The launch extension: the Activity's "Play on the board" and ``/reel board``
(``launch.Launch``)."""

from ..launch import setup, teardown

__all__ = ["setup", "teardown"]
