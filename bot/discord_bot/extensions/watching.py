"""The watching extension: ``/reel watch``, ``/reel ghost`` and the live watches
(``watching.Watching``)."""

from ..watching import setup, teardown

__all__ = ["setup", "teardown"]
