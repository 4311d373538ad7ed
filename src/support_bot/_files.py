"""Create support-bot's files readable by their owner only.

``support-bot.db`` holds customer e-mails, phone numbers and every chat;
``support-bot.log`` and the input history hold what was typed. On a shared
machine the default umask would make them world-readable (0644), so they are
created 0600, and a data folder support-bot creates itself is 0700. Files and
folders that already exist keep the mode their owner gave them.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

__all__ = ["FILE_MODE", "FOLDER_MODE", "private_file", "private_folder"]

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def private_folder(folder: Path) -> None:
    """Create ``folder`` (and missing parents) if it is missing; the folder itself 0700.

    Raises:
        OSError: The folder cannot be created.
    """
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(mode=FOLDER_MODE)
    except FileExistsError:
        return  # another process made it first, or it is a file (the caller's open says so)
    os.chmod(folder, FOLDER_MODE)  # mkdir's mode is filtered by the umask


def private_file(path: Path) -> None:
    """Create ``path`` empty and 0600 if it is missing; an existing file is left alone.

    SQLite gives its ``-wal`` and ``-shm`` files the database file's mode, so
    creating the database this way covers them too.

    Raises:
        OSError: The file cannot be created.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, flags, FILE_MODE))
