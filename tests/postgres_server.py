"""A throw-away PostgreSQL server on loopback, for tests.

``start_postgres()`` runs ``initdb`` into a fresh temporary folder and starts
the server with ``pg_ctl`` on a free 127.0.0.1 port (Unix socket in the same
folder, so it never meets a system cluster); ``PostgresServer.stop()`` stops
it and deletes the folder. The server refuses to run as root, so when the
tests run as root the binaries run as the ``postgres`` system user (created
when missing).

Binaries are looked up in ``$POSTGRES_BINDIR``, then Debian's
``/usr/lib/postgresql/<version>/bin`` (newest first), then ``$PATH``. When
none is found, :class:`PostgresUnavailable` says to install Debian's
``postgresql`` package; the pytest fixture turns that into a skip. Any other
failure (:class:`PostgresStartError`) fails the tests, so CI cannot pass by
silently skipping them.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shlex
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "PostgresServer",
    "PostgresStartError",
    "PostgresUnavailable",
    "find_bindir",
    "free_port",
    "start_postgres",
]

SERVICE_USER = "postgres"


class PostgresUnavailable(RuntimeError):
    """This machine cannot run PostgreSQL at all (no binaries); tests skip with this reason."""


class PostgresStartError(RuntimeError):
    """The binaries are there but the server did not start: a real failure, not a skip."""


@dataclass
class PostgresServer:
    """A running throw-away cluster; ``dsn`` reaches it as superuser ``postgres``."""

    bindir: Path
    root: Path
    port: int
    run_as: str | None

    @property
    def dsn(self) -> str:
        """A libpq connection string for the ``postgres`` database."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres connect_timeout=10"

    def dsn_for(self, dbname: str) -> str:
        """A connection string for another database on the same server."""
        return self.dsn.replace("dbname=postgres", f"dbname={dbname}")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        with contextlib.suppress(subprocess.SubprocessError, OSError):
            _run(
                [str(self.bindir / "pg_ctl"), "stop", "-D", str(self.root / "data"), "-m", "fast"],
                self.run_as,
                timeout=60,
            )
        shutil.rmtree(self.root, ignore_errors=True)


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None."""
    candidates: list[Path] = []
    if os.environ.get("POSTGRES_BINDIR"):
        candidates.append(Path(os.environ["POSTGRES_BINDIR"]))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = sorted(
            (p for p in debian.iterdir() if p.name.replace(".", "").isdigit()),
            key=lambda p: [int(part) for part in p.name.split(".")],
            reverse=True,
        )
        candidates.extend(version / "bin" for version in versions)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for candidate in candidates:
        if (candidate / "initdb").is_file() and (candidate / "pg_ctl").is_file():
            return candidate
    return None


def start_postgres() -> PostgresServer:
    """Start a fresh cluster.

    Raises:
        PostgresUnavailable: no server binaries here (skip).
        PostgresStartError: the server could not be set up or started (fail).
    """
    bindir = find_bindir()
    if bindir is None:
        raise PostgresUnavailable(
            "PostgreSQL server binaries (initdb, pg_ctl) not found; install Debian's "
            "`postgresql` package (apt-get install postgresql) or set POSTGRES_BINDIR"
        )
    run_as = _service_user() if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="springtail-pg-", dir=_temp_parent(run_as is not None)))
    try:
        if run_as is not None:
            entry = pwd.getpwnam(run_as)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        _run(
            [
                str(bindir / "initdb"),
                "-D",
                str(root / "data"),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ],
            run_as,
            timeout=120,
        )
        last_error = ""
        for _ in range(3):  # a free port can be taken between probe and bind
            port = free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {port} -k {root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            )
            result = _run(
                [
                    str(bindir / "pg_ctl"),
                    "start",
                    "-D",
                    str(root / "data"),
                    "-l",
                    str(root / "server.log"),
                    "-w",
                    "-t",
                    "60",
                    "-o",
                    options,
                ],
                run_as,
                timeout=90,
                check=False,
            )
            if result.returncode == 0:
                return PostgresServer(bindir, root, port, run_as)
            log = root / "server.log"
            last_error = result.stdout + result.stderr + (log.read_text() if log.exists() else "")
        raise PostgresStartError(f"PostgreSQL did not start:\n{last_error[-2000:]}")
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def _temp_parent(for_other_user: bool) -> str:
    """A temp folder the server can use: reachable by its user, short enough for a socket path."""
    candidates = [tempfile.gettempdir(), "/tmp", "/var/tmp", "/dev/shm"]
    for candidate in candidates:
        path = Path(candidate)
        if not path.is_dir() or not os.access(path, os.W_OK) or len(str(path)) > 60:
            continue
        # Every folder on the way must be searchable by others (o+x).
        if for_other_user and not all(p.stat().st_mode & 0o001 for p in [path, *path.parents]):
            continue
        return str(path)
    raise PostgresStartError(
        f"no temporary folder ({', '.join(candidates)}) is writable, short and reachable by "
        f"the {SERVICE_USER!r} user; set TMPDIR to one"
    )


def _service_user() -> str:
    """The unprivileged user the server runs as when we are root (created if missing)."""
    try:
        pwd.getpwnam(SERVICE_USER)
    except KeyError:
        useradd = shutil.which("useradd")
        if useradd is None:
            raise PostgresUnavailable(
                f"running as root and there is no {SERVICE_USER!r} user to run PostgreSQL as "
                "(and no useradd to create one); install Debian's `postgresql` package"
            ) from None
        subprocess.run(
            [useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVICE_USER],
            check=True,
            capture_output=True,
        )
    return SERVICE_USER


def _run(
    command: list[str], run_as: str | None, *, timeout: float, check: bool = True
) -> subprocess.CompletedProcess[str]:
    if run_as is not None:
        runuser = shutil.which("runuser")
        if runuser is not None:
            command = [runuser, "-u", run_as, "--", *command]
        else:
            command = ["su", run_as, "-s", "/bin/sh", "-c", shlex.join(command)]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=timeout, cwd="/", check=False
    )
    if check and result.returncode != 0:
        raise PostgresStartError(
            f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}"
        )
    return result


def free_port() -> int:
    """A loopback TCP port that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
