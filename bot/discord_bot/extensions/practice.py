"""The practice extension: the practice question's button (``practice.Practice``)."""

from ..practice import setup, teardown

__all__ = ["setup", "teardown"]
