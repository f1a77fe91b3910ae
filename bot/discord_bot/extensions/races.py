"""The races extension: races: the lobby, the standings, the ticker, ``/reel race``
(``races.Races``)."""

from ..races import setup, teardown

__all__ = ["setup", "teardown"]
