"""The client of a resident checker: ``speclint check --daemon``, ``speclint hook --daemon``, and
``speclint hook`` of its own accord (issue 51).

It finds the corpus root of the command (as ``speclint check`` does, ``speclint.run.roots``),
connects to that root's daemon (``speclint.frontends.daemon``), starting one when none answers,
sends the command line, the working folder and the environment, and prints what comes back. It
imports the standard library and the root finder only, never the engine, so it starts in the time
the interpreter does.

``speclint hook`` without ``--daemon`` or ``--no-daemon`` (:func:`automatic`) answers through the
checker of its corpus when one runs, and otherwise runs in its own process and then, its result
printed, starts one in the background (:func:`start_behind`) that warms itself on the commit's
corpus before it listens: the next commit answers from memory and no commit waits for a start or
a warm-up. Not with ``SPECLINT_DAEMON=0``, not in CI (``CI`` set: a job must not leave a process
behind), not outside a git work tree; one started this way exits after ``AUTOMATIC_IDLE``.

Trust (SECURITY.md, "The daemon"): the socket is looked for only in the user's private daemon
folder (``speclint.common.places.daemon_folder``: a real directory, the user's own, mode 0700); it
must be a socket owned by the user, the process listening on it must run as the user (checked with
``SO_PEERCRED`` where the system has it), and its answer must name the same protocol and corpus
root. Anything else is not a daemon of ours: the command runs in this process instead, with a
note on standard error, never against an answer it cannot trust.
"""

from __future__ import annotations

import contextlib
import errno
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

try:
    import fcntl
except ImportError:  # Windows: no daemon (it has no Unix sockets either)
    fcntl = None  # type: ignore[assignment]

from speclint.common.lifecycle import DEFAULT_TIME_LIMIT
from speclint.common.places import daemon_folder
from speclint.parsing.gitbase import work_tree_top
from speclint.run.roots import RootError, commit_roots, scope_of

PROTOCOL = 2
DAEMON_FLAG = "--daemon"
NO_DAEMON_FLAG = "--no-daemon"
DEBUG_FLAG = "--debug"
HELP_FLAGS = frozenset({"--help", "-h"})
# ``SPECLINT_DAEMON=0`` (or false, no, off): the hook neither uses nor starts a checker of its own
# accord; ``--daemon`` still does. ``CI`` set (to anything but those): none is started.
DAEMON_VARIABLE = "SPECLINT_DAEMON"
OFF_VALUES = frozenset({"0", "false", "no", "off"})
# The commands a daemon answers, with their options that take a value (the rest are flags):
# what the client needs to tell the paths of a command line from option values, without click.
# ``tests/frontends/test_daemon.py`` checks this table against the commands' definitions.
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
            "--select",
            "--ignore",
            "--baseline",
            "--diff-base",
            "--time-limit",
        }
    ),
    "hook": frozenset(
        {"--fail-on", "--max-warnings", "--config", "--select", "--ignore", "--time-limit"}
    ),
}
IDLE_TIMEOUT = 1800.0  # seconds without a request before a daemon exits
# The idle timeout of a checker the hook starts of its own accord: it spans the commits of a
# working session (each one starts the wait again; a pause to write the next page is rarely
# longer), and nobody asked for the process, so it is gone a quarter of an hour after the last.
AUTOMATIC_IDLE = 900.0
LOCK_RETRY = 5.0  # seconds a checker the hook started tries for the start lock before giving up
START_WAIT = 30.0  # seconds a client waits for the daemon it started to listen
SEND_WAIT = 30.0  # seconds either side gives the other to take a message
ANSWER_WAIT = 60.0  # seconds for an answer that is not a run (status, stop)
ANSWER_MARGIN = 120.0  # seconds beyond a run's time limit before the client gives up on it
DEFAULT_LIMIT = DEFAULT_TIME_LIMIT  # the run's, when neither --time-limit nor the variable says
LOG_LIMIT = 1 << 20  # a daemon's log over this many bytes is started afresh
REQUEST_LIMIT = 8 * 1024 * 1024
_PEER_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid


class DaemonUnavailable(Exception):
    """No trustworthy daemon can answer; the message says why."""


def installation() -> str:
    """This installation of speclint: the interpreter and the package's folder. A pre-commit
    environment and a global install each have their own daemon, whose answers are their own
    version's."""
    package = Path(__file__).resolve().parents[1]
    return f"{sys.executable}\x00{package}"


def socket_path(root: Path) -> Path | None:
    """Where this installation's daemon of the corpus at ``root`` listens, or None without a
    private folder."""
    folder = daemon_folder()
    if folder is None:
        return None
    key = f"{root.resolve()}\x00{installation()}".encode("utf-8", "surrogateescape")
    return folder / f"{hashlib.sha256(key).hexdigest()[:24]}.sock"


def wanted(argv: Sequence[str]) -> bool:
    """Whether the command line asks for the daemon: ``check`` or ``hook`` with ``--daemon``
    (not as the value of another option, and not followed by ``--no-daemon``, as click reads a
    pair of flags: the last one says)."""
    if not argv or argv[0] not in COMMANDS:
        return False
    return _choice(argv) == DAEMON_FLAG


def _choice(argv: Sequence[str]) -> str | None:
    """The last of ``--daemon`` and ``--no-daemon`` on the command line, or None."""
    said = [flag for flag in _flags(argv) if flag in (DAEMON_FLAG, NO_DAEMON_FLAG)]
    return said[-1] if said else None


def _off(variable: str) -> bool:
    return os.environ.get(variable, "").strip().lower() in OFF_VALUES


def automatic(argv: Sequence[str]) -> bool:
    """Whether the command is ``speclint hook`` choosing the resident checker itself: neither
    ``--daemon`` nor ``--no-daemon`` (nor ``--debug``, which runs in this process, nor
    ``--help``), ``SPECLINT_DAEMON`` not 0, and a system with Unix sockets."""
    if not argv or argv[0] != "hook" or _choice(argv) is not None or _off(DAEMON_VARIABLE):
        return False
    flags = set(_flags(argv))
    return (
        DEBUG_FLAG not in flags
        and not flags & HELP_FLAGS
        and hasattr(socket, "AF_UNIX")
        and fcntl is not None
    )


def _words(argv: Sequence[str]) -> list[tuple[str, str]]:
    """The command line's words after the command, each as ("option", "value", "argument" or
    "end"), read as click reads them: an option that takes a value takes the next word (or what
    follows ``=``, or the rest of a cluster of short options: ``-qo FILE``, ``-ojson``), and every
    word after ``--`` is an argument."""
    takes_value = COMMANDS.get(argv[0], frozenset())
    found: list[tuple[str, str]] = []
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            found.append(("end", word))
            found.extend(("argument", rest) for rest in words)
            break
        if word.startswith("--"):
            found.append(("option", word))
            if "=" not in word and word in takes_value:
                found.extend(("value", value) for value in [next(words, "")])
        elif word.startswith("-") and len(word) > 1:
            found.append(("option", word))
            for position, letter in enumerate(word[1:], start=1):
                if f"-{letter}" in takes_value:
                    if position == len(word) - 1:  # the value is the next word
                        found.extend(("value", value) for value in [next(words, "")])
                    break
        else:
            found.append(("argument", word))
    return found


def _flags(argv: Sequence[str]) -> list[str]:
    return [word.split("=", 1)[0] for kind, word in _words(argv) if kind == "option"]


def _positionals(argv: Sequence[str]) -> list[str]:
    return [word for kind, word in _words(argv) if kind == "argument"]


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
    return [argv[0]] + [
        word for kind, word in _words(argv) if not (kind == "option" and word == DAEMON_FLAG)
    ]


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


def receive(
    connection: socket.socket, limit: int | None = None, wait: float | None = None
) -> dict[str, Any]:
    """One newline-ended JSON object, within ``wait`` seconds in all; a
    :class:`DaemonUnavailable` when the other end closes first, is too slow, sends more than
    ``limit`` bytes, or sends something else."""
    chunks: list[bytes] = []
    size = 0
    until = None if wait is None else time.monotonic() + wait
    while True:
        if until is not None:
            connection.settimeout(max(until - time.monotonic(), 0.001))
        try:
            chunk = connection.recv(1 << 16)
        except TimeoutError:
            raise DaemonUnavailable(f"no whole message within {wait:g} s") from None
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
    except (ValueError, RecursionError):
        raise DaemonUnavailable("a message that is not JSON") from None
    if not isinstance(message, dict):
        raise DaemonUnavailable("a message that is not a JSON object")
    return message


def ask(
    root: Path, message: dict[str, Any], start: bool = False, wait: float | None = ANSWER_WAIT
) -> dict[str, Any]:
    """Send ``message`` to this installation's daemon of ``root`` (starting one first when
    ``start`` and none answers) and return its answer within ``wait`` seconds, checked to be a
    daemon's of this protocol, installation and root."""
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
        connection.settimeout(SEND_WAIT)
        try:
            send(connection, {**message, "protocol": PROTOCOL, "root": str(root), **identity()})
        except OSError as error:
            raise DaemonUnavailable(f"the request could not be sent ({error})") from None
        answer = receive(connection, wait=wait)
    if (
        answer.get("protocol") != PROTOCOL
        or answer.get("root") != str(root)
        or answer.get("installation") != installation()
    ):
        raise DaemonUnavailable("it answered for another protocol, installation or corpus")
    return answer


def identity() -> dict[str, str]:
    """What a request and an answer carry to say which installation they are of."""
    return {"installation": installation()}


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
    """Start the daemon of ``root`` in its own session and connect once it listens.

    Only one client starts it: the others wait on the lock beside the socket, then find it (a
    checker the hook started holds the lock until it listens, its warm-up done: they find it
    too)."""
    lock = start_lock(path)
    try:
        with contextlib.suppress(DaemonUnavailable):
            return _connect(path)  # another client started it while this one waited
        process = _launch(root, path, idle)
        waited_until = time.monotonic() + START_WAIT
        while True:
            try:
                return _connect(path)
            except DaemonUnavailable:
                if process.poll() is not None:
                    raise DaemonUnavailable(
                        f"it exited at start (its log: {_log_of(path)})"
                    ) from None
                if time.monotonic() > waited_until:
                    raise DaemonUnavailable(
                        f"it did not start within {START_WAIT:g} s (its log: {_log_of(path)})"
                    ) from None
                time.sleep(0.02)
    finally:
        os.close(lock)


def _log_of(path: Path) -> Path:
    return path.with_suffix(".log")


def _launch(
    root: Path, path: Path, idle: float, extra: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """The daemon of ``root``, started detached: in its own session (not killed with the
    terminal or hook that started it), standard input from ``/dev/null``, its output to its log
    beside the socket, no other descriptor of this process's (pre-commit and git wait for the
    hook's output pipes to close: a daemon holding them would hold up the commit). It runs with
    ``-P`` from ``/``: nothing of the folder it was started in (the repository, which may come
    from a fork) is on its import path."""
    log = _log_of(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
    try:
        with contextlib.suppress(OSError):
            if os.lstat(log).st_size > LOG_LIMIT:
                os.unlink(log)
        output = os.open(log, flags, 0o600)
    except OSError as error:
        raise DaemonUnavailable(f"cannot open its log {log}: {error.strerror}") from None
    command = [sys.executable, "-P", "-m", "speclint.frontends.daemon"]
    try:
        return subprocess.Popen(  # our own interpreter and module, no shell
            [*command, "--idle-timeout", str(idle), *extra, str(root)],
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=output,
            cwd="/",
            start_new_session=True,
            close_fds=True,
        )
    except OSError as error:
        raise DaemonUnavailable(f"cannot start it: {error.strerror}") from None
    finally:
        os.close(output)


def start_lock(path: Path, wait: float | None = None) -> int:
    """An exclusive lock on the start lock of the daemon listening at ``path`` (the file beside
    the socket, made if missing, never through a link), held until its descriptor is closed or
    the process ends; within ``wait`` seconds (None: however long it takes), else a
    :class:`DaemonUnavailable`.

    A POSIX record lock (``lockf``), not ``flock``: it belongs to the process that took it, so
    the rule workers a warming daemon forks do not keep it after the daemon lets it go."""
    lock = path.with_suffix(".lock")
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(lock, flags, 0o600)
    except OSError as error:
        raise DaemonUnavailable(f"cannot open its lock {lock}: {error.strerror}") from None
    until = None if wait is None else time.monotonic() + wait
    while True:
        try:
            fcntl.lockf(
                descriptor, fcntl.LOCK_EX if until is None else fcntl.LOCK_EX | fcntl.LOCK_NB
            )
            return descriptor
        except OSError as error:
            if until is None or error.errno not in (errno.EACCES, errno.EAGAIN):
                os.close(descriptor)
                raise DaemonUnavailable(f"cannot lock {lock}: {error.strerror}") from None
            if time.monotonic() >= until:
                os.close(descriptor)
                raise DaemonUnavailable(f"another process holds {lock}") from None
            time.sleep(0.05)


def any_socket() -> bool:
    """Whether the private daemon folder holds any daemon's socket (of any corpus)."""
    folder = daemon_folder()
    try:
        return folder is not None and any(folder.glob("*.sock"))
    except OSError:
        return False


def answering(path: Path) -> bool:
    """Whether a daemon of ours answers at ``path`` (a connection is accepted and trusted)."""
    try:
        _connect(path).close()
    except DaemonUnavailable:
        return False
    return True


def start_behind(
    argv: Sequence[str], root: Path | None = None, idle: float = AUTOMATIC_IDLE
) -> bool:
    """After ``speclint ARGV`` (an :func:`automatic` hook) ran in this process: start the checker
    of its corpus (``root``, else the command's) in the background for the next commits, and
    return at once (True when one was started). It warms itself with this hook's options and
    working folder (``speclint.frontends.daemon``, ``--warm``), and listens only then.

    None is started in CI, outside a git work tree, for a hook of several corpora, without a
    private folder, when one answers already, or when another process holds the start lock
    (another hook starting one, a checker warming, a ``--daemon`` client waiting for its own):
    two hooks at once start one checker."""
    if not _off("CI") and os.environ.get("CI", "").strip():
        return False
    root = root or command_root(argv)
    path = None if root is None else socket_path(root)
    if root is None or path is None or work_tree_top(root) is None:
        return False
    try:
        lock = start_lock(path, wait=0)
    except DaemonUnavailable:
        return False
    try:
        if answering(path):
            return False
        warm = {"argv": warm_argv(argv, root), "cwd": os.getcwd(), "umask": _umask()}
        # Started while this process holds the lock: a hook ending meanwhile finds it held.
        _launch(root, path, idle, ["--warm", json.dumps(warm)])
    except (DaemonUnavailable, OSError):
        return False
    finally:
        os.close(lock)
    return True


def warm_argv(argv: Sequence[str], root: Path) -> list[str]:
    """The hook's command line as its checker's warm-up runs it: its options, and the corpus
    root as its path, so that the corpus is judged whether or not the index still holds a change
    (the commit is usually made by then)."""
    options = [word for kind, word in _words(argv) if kind in ("option", "value")]
    return [argv[0], *options, "--", str(root)]


def _answer_wait(argv: Sequence[str]) -> float | None:
    """How long the client waits for the run: its time limit (--time-limit, else
    SPECLINT_TIME_LIMIT, else the default) and a margin; None when the run has no limit."""
    given = None
    words = _words(argv)
    for (kind, word), following in zip(words, [*words[1:], ("", "")], strict=False):
        if kind == "option" and word.startswith("--time-limit"):
            given = word.partition("=")[2] or following[1]
    given = given or os.environ.get("SPECLINT_TIME_LIMIT", "").strip() or str(DEFAULT_LIMIT)
    try:
        seconds = float(given)
    except ValueError:
        return ANSWER_WAIT  # the run says what is wrong with it
    return None if seconds == 0 else max(seconds, 0) + ANSWER_MARGIN


def forward(argv: Sequence[str]) -> int | None:
    """Run ``speclint ARGV`` (with ``--daemon``) through the daemon of its corpus, printing what
    it prints; the exit code, or None when no daemon can answer (the caller then runs the
    command itself, after the note printed here)."""
    if not hasattr(socket, "AF_UNIX") or fcntl is None:
        _not_used("this system has no Unix sockets")
        return None
    if DEBUG_FLAG in _flags(argv):
        _not_used("--debug runs the rules in this process")
        return None
    root = command_root(argv)
    if root is None:
        return None  # no root, or several: this process's run says which
    answer: dict[str, Any] = {}
    try:
        for _ in range(2):  # a daemon whose code was upgraded exits: a new one answers
            answer = ask(root, _request(argv), start=True, wait=_answer_wait(argv))
            if "restart" not in answer:
                break
    except DaemonUnavailable as error:
        _not_used(str(error))
        return None
    code = _printed(answer)
    if code is None:
        _not_used(str(answer.get("refused", "an answer without output")))
    return code


def forward_if_running(argv: Sequence[str]) -> int | None:
    """An :func:`automatic` hook: run it through the checker of its corpus when one runs,
    printing what it prints; the exit code, or None, quietly (the user asked for nothing), when
    none answers, or it answers otherwise (one upgraded under it exits: the hook starts a new
    one). With no daemon's socket at all, it does not even look for the corpus (a few git
    commands the hook then runs itself)."""
    if not any_socket():
        return None
    root = command_root(argv)
    if root is None:
        return None
    try:
        answer = ask(root, _request(argv), wait=_answer_wait(argv))
    except DaemonUnavailable:
        return None
    return _printed(answer)


def _request(argv: Sequence[str]) -> dict[str, Any]:
    return {
        "command": "run",
        "argv": without_flag(argv),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "umask": _umask(),
        "stdout_tty": sys.stdout.isatty(),
    }


def _printed(answer: dict[str, Any]) -> int | None:
    """Print a daemon's answer to a run as the command would have; its exit code, or None (and
    nothing printed) when it is not the answer to a run."""
    output, code = answer.get("output"), answer.get("code")
    if not (
        isinstance(code, int)
        and isinstance(output, list)
        and all(
            isinstance(part, list)
            and len(part) == 2
            and part[0] in (1, 2)
            and isinstance(part[1], str)
            for part in output
        )
    ):
        return None
    try:
        for stream, text in output:
            target = sys.stdout if stream == 1 else sys.stderr
            target.buffer.write(text.encode(target.encoding or "utf-8", "surrogateescape"))
            target.flush()
    except BrokenPipeError:  # `speclint check --daemon | head`: as a cold run, quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return code


def _not_used(reason: str) -> None:
    print(f"speclint: the daemon is not used: {reason}; checking in this process", file=sys.stderr)


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
