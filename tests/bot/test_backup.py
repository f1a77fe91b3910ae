"""``reel backup FILE``: an online copy of the database that a restore can move into place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from test_store_faults import T0, start

from bot.cli import main
from bot.store import GameUpdate, Store


async def test_the_copy_holds_every_row_even_those_still_in_the_write_ahead_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(tmp_path / "reel.db")
    try:
        await start(store, 1)
        assert await store.save_game(GameUpdate(1, 1, 2, "deal", "playing", 0, T0))
        target = tmp_path / "copies" / "reel-backup.db"
        target.parent.mkdir()
        target.write_bytes(b"an older copy")  # replaced whole
        assert main(["backup", str(target), "--db", str(store.path)]) == 0  # bot still open
    finally:
        await store.close()
    assert "Copied" in capsys.readouterr().out
    assert not target.with_name("reel-backup.db.part").exists()
    copy = sqlite3.connect(target)
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT version, moves FROM current_games").fetchall() == [(2, "deal")]
    finally:
        copy.close()
    restored = await Store.open(target)  # a copy opens as a database of its own
    row = await restored.load_game(1)
    await restored.close()
    assert row is not None and row.moves == "deal"


def test_a_missing_database_is_said_and_no_copy_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "copy.db"
    assert main(["backup", str(target), "--db", str(tmp_path / "nothing-here.db")]) == 1
    assert "no such database" in capsys.readouterr().err
    assert not target.exists() and not (tmp_path / "nothing-here.db").exists()


async def test_a_copy_that_cannot_be_written_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(tmp_path / "reel.db")
    await store.close()
    target = tmp_path / "no-such-folder" / "copy.db"
    assert main(["backup", str(target), "--db", str(store.path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("reel backup: ") and err.count("\n") == 1
    assert not target.parent.exists()
