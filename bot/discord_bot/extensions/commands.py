"""The commands extension: the ``/reel`` group and the questions' button
(``commands.GameCommands``)."""

from ..commands import setup, teardown

__all__ = ["setup", "teardown"]
