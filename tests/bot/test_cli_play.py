"""``reel play``'s flags that change a saved setting (bot/cli/play.py): each pair of
opposite flags gives True, False, or None (unchanged), and no pair takes both."""

from __future__ import annotations

import pytest

from bot.cli import build_parser
from bot.cli.play import SAVED, saved_settings

UNCHANGED = {"symbols": None, "winnable": None, "auto_aces": None, "fair_hints": None}


def test_no_flag_changes_no_setting() -> None:
    assert saved_settings(build_parser().parse_args(["play"])) == UNCHANGED


@pytest.mark.parametrize(("setting", "on", "off"), [(s, on, off) for s, (on, _), (off, _) in SAVED])
def test_each_flag_turns_its_setting_on_or_off_and_no_other(
    setting: str, on: str, off: str
) -> None:
    assert saved_settings(build_parser().parse_args(["play", on])) == {
        **UNCHANGED,
        setting: True,
    }
    assert saved_settings(build_parser().parse_args(["play", off])) == {
        **UNCHANGED,
        setting: False,
    }
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", on, off])
