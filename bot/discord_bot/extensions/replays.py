"""The replays extension: ``/reel replay`` and its step buttons (``replays.Replays``)."""

from ..replays import setup, teardown

__all__ = ["setup", "teardown"]
