"""support-bot's files are created readable by their owner only."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from support_bot._files import private_file, private_folder


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> Iterator[None]:
    old = os.umask(0o022)  # the usual default, which makes files 0644
    yield None
    os.umask(old)


def test_a_new_folder_is_0700_and_its_missing_parents_are_made(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b" / "data"
    private_folder(folder)
    assert folder.is_dir()
    assert mode(folder) == 0o700


def test_an_existing_folder_keeps_its_mode(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    private_folder(folder)
    assert mode(folder) == 0o755


def test_a_new_file_is_empty_and_0600(tmp_path: Path) -> None:
    path = tmp_path / "support-bot.log"
    private_file(path)
    assert path.read_bytes() == b""
    assert mode(path) == 0o600


def test_an_existing_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "support-bot.db"
    path.write_text("kept")
    path.chmod(0o640)
    private_file(path)
    assert path.read_text() == "kept"
    assert mode(path) == 0o640


def test_a_folder_that_cannot_be_made_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(FileExistsError):
        private_folder(blocker / "data")
