"""The boards extension: a board's buttons and menu, and its redraws (``views.Boards``)."""

from ..views import setup, teardown

__all__ = ["setup", "teardown"]
