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
    err = capsys.readouterr().err
    assert err == f"reel backup: no such database {tmp_path / 'nothing-here.db'}: nothing to copy\n"
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
    # the copy's side is named, not the database's ("reel.db: unable to open database file")
    assert err == f"reel backup: can't write the copy {target}: no folder {target.parent}\n"
    assert not target.parent.exists()
    assert sorted(tmp_path.iterdir()) == [store.path]  # nothing left beside it either
    folder = tmp_path / "backups"  # a folder meant (the name ends in /), but none is there
    assert main(["backup", f"{folder}/", "--db", str(store.path)]) == 1
    err = capsys.readouterr().err
    assert err == f"reel backup: can't write the copy in {folder}/: no such folder\n"
    assert sorted(tmp_path.iterdir()) == [store.path]


async def test_a_folder_means_a_copy_inside_it_named_as_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(tmp_path / "data" / "reel.db")
    try:
        await start(store, 1)
        folder = tmp_path / "backups"
        folder.mkdir()
        assert main(["backup", str(folder), "--db", str(store.path)]) == 0
        assert main(["backup", f"{folder}/", "--db", str(store.path)]) == 0  # replaced
    finally:
        await store.close()
    assert capsys.readouterr().out == f"Copied {store.path} to {folder / 'reel.db'}.\n" * 2
    assert sorted(folder.iterdir()) == [folder / "reel.db"]  # no backups.part beside it
    assert not (tmp_path / "backups.part").exists()
    restored = await Store.open(folder / "reel.db")
    try:
        assert await restored.load_game(1) is not None
    finally:
        await restored.close()


async def test_a_copy_into_the_databases_own_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = await Store.open(tmp_path / "reel.db")
    try:
        await start(store, 1)
        before = store.path.read_bytes()
        assert main(["backup", str(tmp_path), "--db", str(store.path)]) == 1
        assert main(["backup", str(store.path), "--db", str(store.path)]) == 1
        assert store.path.read_bytes() == before
        assert await store.load_game(1) is not None
    finally:
        await store.close()
    err = capsys.readouterr().err
    assert err == f"reel backup: can't write the copy {store.path}: it is the database itself\n" * 2


def test_a_file_that_is_no_database_is_named_as_the_side_that_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "notes.db"
    source.write_text("not a database, but some notes\n" * 200)
    target = tmp_path / "copy.db"
    assert main(["backup", str(target), "--db", str(source)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"reel backup: can't read the database {source}: ")
    assert sorted(tmp_path.iterdir()) == [source]


async def test_a_copy_that_fails_at_the_last_step_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(tmp_path / "reel.db")
    await store.close()
    target = tmp_path / "copies" / "copy.db"
    target.parent.mkdir()

    def refused(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("os.replace", refused)  # the copy moved into place: refused
    assert main(["backup", str(target), "--db", str(store.path)]) == 1
    err = capsys.readouterr().err
    assert err == f"reel backup: can't write the copy {target}: [Errno 13] Permission denied\n"
    assert list(target.parent.iterdir()) == []  # no copy.db.part
