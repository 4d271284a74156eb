"""The client of a resident checker: ``speclint check --daemon`` and ``speclint hook --daemon``.

It finds the corpus root of the command (as ``speclint check`` does, ``speclint.run.roots``),
connects to that root's daemon (``speclint.frontends.daemon``), starting one when none answers,
sends the command line, the working folder and the environment, and prints what comes back. It
imports the standard library and the root finder only, never the engine, so it starts in the time
the interpreter does.

Trust (SECURITY.md, "The daemon"): the socket is looked for only in the user's private daemon
folder (``speclint.common.places.daemon_folder``: a real directory, the user's own, mode 0700); it
must be a socket owned by the user, the process listening on it must run as the user (checked with
``SO_PEERCRED`` where the system has it), and its answer must name the same protocol and corpus
root. Anything else is not a daemon of ours: the command runs in this process instead, with a
note on standard error, never against an answer it cannot trust.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import struct
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from speclint.common.places import daemon_folder
from speclint.run.roots import RootError, commit_roots, scope_of

PROTOCOL = 1
DAEMON_FLAG = "--daemon"
# The commands a daemon answers, with their options that take a value (the rest are flags):
# what the client needs to tell the paths of a command line from option values, without click.
# ``tests/test_daemon.py`` checks this table against the commands' definitions.
COMMANDS: dict[str, frozenset[str]] = {
    "check": frozenset(
        {
            "-f",
            "--format",
            "-o",
            "--output",
            "--fail-on",
            "--max-warnings",
            "--config",
            "--rule",
            "--baseline",
            "--diff-base",
            "--time-limit",
        }
    ),
    "hook": frozenset({"--fail-on", "--max-warnings", "--config", "--time-limit"}),
}
IDLE_TIMEOUT = 1800.0  # seconds without a request before a daemon exits
START_WAIT = 30.0  # seconds a client waits for the daemon it started to listen
REQUEST_LIMIT = 8 * 1024 * 1024
_PEER_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid


class DaemonUnavailable(Exception):
    """No trustworthy daemon can answer; the message says why."""


def socket_path(root: Path) -> Path | None:
    """Where the daemon of the corpus at ``root`` listens, or None without a private folder."""
    folder = daemon_folder()
    if folder is None:
        return None
    name = hashlib.sha256(str(root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return folder / f"{name}.sock"


def wanted(argv: Sequence[str]) -> bool:
    """Whether the command line asks for the daemon: ``check`` or ``hook`` with ``--daemon``
    (not as the value of another option)."""
    if not argv or argv[0] not in COMMANDS:
        return False
    return DAEMON_FLAG in _flags(argv)


def _flags(argv: Sequence[str]) -> list[str]:
    takes_value = COMMANDS.get(argv[0], frozenset())
    flags, skip = [], False
    for word in argv[1:]:
        if skip:
            skip = False
        elif word == "--":
            break
        elif word.startswith("-"):
            flags.append(word.split("=", 1)[0])
            skip = word in takes_value
    return flags


def _positionals(argv: Sequence[str]) -> list[str]:
    takes_value = COMMANDS.get(argv[0], frozenset())
    found, skip, rest = [], False, False
    for word in argv[1:]:
        if rest or (not skip and not word.startswith("-")):
            found.append(word)
        elif skip:
            skip = False
        elif word == "--":
            rest = True
        else:
            skip = word in takes_value
    return found


def command_root(argv: Sequence[str]) -> Path | None:
    """The one corpus root the command judges, or None when it has none or several (the
    command then runs in this process, which says why)."""
    paths = [Path(p) for p in _positionals(argv)]
    try:
        if argv[0] == "hook" and not paths:
            roots, _ = commit_roots(Path(os.curdir))
            return roots[0].resolve() if len(roots) == 1 else None
        return scope_of(paths).root.resolve()
    except (RootError, OSError):
        return None


def without_flag(argv: Sequence[str]) -> list[str]:
    """The command line as the daemon runs it: without ``--daemon``."""
    takes_value = COMMANDS.get(argv[0], frozenset())
    kept, skip = [argv[0]], False
    for word in argv[1:]:
        if not skip and word == DAEMON_FLAG:
            continue
        kept.append(word)
        skip = not skip and word in takes_value
    return kept


# --- talking to a daemon ------------------------------------------------------------------------


def _connect(path: Path) -> socket.socket:
    """A connection to the daemon listening at ``path``, after checking that it is ours."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        raise DaemonUnavailable("none is running") from None
    except OSError as error:
        raise DaemonUnavailable(f"cannot look at its socket: {error.strerror}") from None
    if not stat.S_ISSOCK(status.st_mode) or (
        hasattr(os, "geteuid") and status.st_uid != os.geteuid()
    ):
        raise DaemonUnavailable(f"{path} is not a socket of this user's: not trusted")
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(str(path))
        listening_user = peer_user(connection)
        if listening_user is not None and listening_user != os.geteuid():
            raise DaemonUnavailable(f"the process listening at {path} is another user's")
    except DaemonUnavailable:
        connection.close()
        raise
    except OSError as error:
        connection.close()
        raise DaemonUnavailable(f"none answers at {path} ({error.strerror})") from None
    return connection


def peer_user(connection: socket.socket) -> int | None:
    """The user id of the process at the other end of a Unix socket, where the system says
    (Linux's ``SO_PEERCRED``); None where it does not (the folder's privacy is then the check)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    raw = connection.getsockopt(socket.SOL_SOCKET, option, _PEER_CREDENTIALS.size)
    _, user, _ = _PEER_CREDENTIALS.unpack(raw)
    return int(user)


def send(connection: socket.socket, message: dict[str, Any]) -> None:
    connection.sendall(json.dumps(message, sort_keys=True).encode("utf-8") + b"\n")


def receive(connection: socket.socket, limit: int | None = None) -> dict[str, Any]:
    """One newline-ended JSON object; a :class:`DaemonUnavailable` when the other end closes
    first, sends more than ``limit`` bytes, or sends something else."""
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = connection.recv(1 << 16)
        except OSError as error:
            raise DaemonUnavailable(f"the connection failed ({error.strerror})") from None
        if not chunk:
            raise DaemonUnavailable("the other end closed the connection before answering")
        chunks.append(chunk)
        size += len(chunk)
        if limit is not None and size > limit:
            raise DaemonUnavailable(f"a message over {limit} bytes")
        if chunk.endswith(b"\n"):
            break
    try:
        message = json.loads(b"".join(chunks))
    except ValueError:
        raise DaemonUnavailable("an answer that is not JSON") from None
    if not isinstance(message, dict):
        raise DaemonUnavailable("an answer that is not a JSON object")
    return message


def ask(root: Path, message: dict[str, Any], start: bool = False) -> dict[str, Any]:
    """Send ``message`` to the daemon of ``root`` (starting one first when ``start`` and none
    answers) and return its answer, checked to be a daemon's of this protocol and root."""
    path = socket_path(root)
    if path is None:
        raise DaemonUnavailable("no private folder for its socket (see SECURITY.md)")
    try:
        connection = _connect(path)
    except DaemonUnavailable:
        if not start:
            raise
        connection = _spawn(root, path)
    with connection:
        send(connection, {**message, "protocol": PROTOCOL, "root": str(root)})
        answer = receive(connection)
    if answer.get("protocol") != PROTOCOL or answer.get("root") != str(root):
        raise DaemonUnavailable("it answered for another protocol or corpus: not trusted")
    return answer


def start(root: Path, idle: float = IDLE_TIMEOUT) -> int:
    """The process id of the daemon of ``root``, started unless one answers already."""
    path = socket_path(root)
    if path is None:
        raise DaemonUnavailable("no private folder for its socket (see SECURITY.md)")
    try:
        found = ask(root, {"command": "status"})
    except DaemonUnavailable:
        _spawn(root, path, idle).close()
        found = ask(root, {"command": "status"})
    pid = found.get("pid")
    if not isinstance(pid, int):
        raise DaemonUnavailable("it does not say which process it is")
    return pid


def _spawn(root: Path, path: Path, idle: float = IDLE_TIMEOUT) -> socket.socket:
    """Start the daemon of ``root`` in its own session and connect once it listens."""
    log = path.with_suffix(".log")
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        output = os.open(log, flags, 0o600)
    except OSError as error:
        raise DaemonUnavailable(f"cannot open its log {log}: {error.strerror}") from None
    command = [sys.executable, "-m", "speclint.frontends.daemon", "--idle-timeout", str(idle)]
    try:
        subprocess.Popen(
            [*command, str(root)],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            start_new_session=True,  # not killed with the terminal or the hook that started it
            close_fds=True,
        )
    except OSError as error:
        raise DaemonUnavailable(f"cannot start it: {error.strerror}") from None
    finally:
        os.close(output)
    waited_until = time.monotonic() + START_WAIT
    while True:
        try:
            return _connect(path)
        except DaemonUnavailable:
            if time.monotonic() > waited_until:
                raise DaemonUnavailable(
                    f"it did not start within {START_WAIT:g} s (its log: {log})"
                ) from None
            time.sleep(0.02)


def forward(argv: Sequence[str]) -> int | None:
    """Run ``speclint ARGV`` (with ``--daemon``) through the daemon of its corpus, printing what
    it prints; the exit code, or None when no daemon can answer (the caller then runs the
    command itself, after the note printed here)."""
    root = command_root(argv)
    if root is None:
        return None  # no root, or several: this process's run says which
    request = {
        "command": "run",
        "argv": without_flag(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "stdout_tty": sys.stdout.isatty(),
    }
    answer: dict[str, Any] = {}
    try:
        for _ in range(2):  # a daemon whose code was upgraded exits: a new one answers
            answer = ask(root, request, start=True)
            if "restart" not in answer:
                break
    except DaemonUnavailable as error:
        print(
            f"speclint: the daemon is not used: {error}; checking in this process", file=sys.stderr
        )
        return None
    out, err, code = answer.get("stdout"), answer.get("stderr"), answer.get("code")
    if not (isinstance(out, str) and isinstance(err, str) and isinstance(code, int)):
        reason = answer.get("refused", "an answer without output")
        print(
            f"speclint: the daemon is not used: {reason}; checking in this process", file=sys.stderr
        )
        return None
    sys.stderr.buffer.write(err.encode("utf-8", "surrogateescape"))
    sys.stderr.flush()
    sys.stdout.buffer.write(out.encode("utf-8", "surrogateescape"))
    sys.stdout.flush()
    return code
