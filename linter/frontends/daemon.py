"""The resident checker: one process per corpus root that keeps the corpus in memory and answers
``speclint check --daemon`` and ``speclint hook --daemon`` (issue 29, item 3).

dmypy and eslint_d are the models. The daemon imports the engine and every rule once, and keeps
what a run reads back from the cache folder in memory (``speclint.run.resident``): a check in which
nothing changed costs a status call per file and the report; after an edit, only the edited files
are read and parsed again, and only the rules whose inputs changed run again (forked from this
process, which has everything imported). Each request is the command line as the user typed it
(without ``--daemon``), run by the same command-line code in this process, with the client's
working folder and environment, so what it prints and exits with is what a cold run's would be:
``tests/frontends/test_daemon.py`` compares them byte for byte after an edit of each kind of document.

Lifetime and trust (SECURITY.md, "The daemon"): it listens on a Unix socket in the user's private
daemon folder (``speclint.common.places.daemon_folder``), mode 0600, named by the hash of the
root's path. It answers only a peer running as the same user (``SO_PEERCRED``) and only requests
for its own root. It exits after ``--idle-timeout`` seconds without a request, on ``speclint
daemon stop``, on SIGTERM or SIGINT, when its code is upgraded under it (the request is answered
"restart" and the client starts a new daemon), and when another daemon has taken its socket's
name. It never reads a request over 8 MB, and never runs anything a request names but speclint's
own commands.

Started by ``speclint hook`` of its own accord (``speclint.frontends.client.start_behind``, issue
51), it is given the hook's command line (``--warm``) and a short idle timeout: it takes the start
lock beside its socket (or exits: another is starting), runs that hook once on its corpus, output
discarded, so that the corpus, the base revision and the rules' results are in memory, and only
then puts its socket in place and lets the lock go. A commit made meanwhile finds no socket and
runs in its own process: no commit waits for a warm-up.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import socket
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import click

from speclint.analyses.context import Context
from speclint.common.cache_folder import installed_code, warn_afresh
from speclint.common.lifecycle import Interrupted, interruptible
from speclint.frontends import cli
from speclint.frontends.client import (
    COMMANDS,
    DEBUG_FLAG,
    IDLE_TIMEOUT,
    LOCK_RETRY,
    PROTOCOL,
    REQUEST_LIMIT,
    SEND_WAIT,
    DaemonUnavailable,
    answering,
    identity,
    installation,
    peer_user,
    receive,
    send,
    socket_path,
    start_lock,
)
from speclint.frontends.options import RESIDENT
from speclint.run.catalog import all_rules
from speclint.run.engine import Options, lint_corpus
from speclint.run.resident import Resident

TICK = 2.0  # seconds between the idle, socket and stop checks while no request comes
READ_WAIT = 10.0  # seconds a connected client has to send its whole request
DAEMON_UMASK = 0o077  # the daemon's own, between requests (it writes only private files)
WARM_UP_LIMIT = 60.0  # seconds for the check of ``_WARM_UP`` at start


class _Output(io.TextIOBase):
    """One of a command's output streams, for the client: what it writes is kept in order with
    the other stream's (``printed``), so that a client printing both to one terminal shows them
    as a cold run does; a terminal when the client's is one (colors)."""

    def __init__(self, number: int, printed: list[list[Any]], terminal: bool) -> None:
        super().__init__()
        self.number = number
        self.printed = printed
        self.terminal = terminal

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click asks whether bytes go through: they do not
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            last = self.printed[-1] if self.printed else None
            if last is not None and last[0] == self.number:
                last[1] += text
            else:
                self.printed.append([self.number, text])
        return len(text)

    def isatty(self) -> bool:
        return self.terminal


# A corpus of one document of each common kind, checked once in this process when the daemon
# starts: what the rules build on first use (the validators of each OpenAPI and AsyncAPI version,
# compiled metaschemas, the imports they defer) is then built here, once, and every forked rule
# starts with it instead of building it again at every request.
_WARM_UP = {
    "openapi-30.yaml": "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n"
    "  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
    "          content: {application/json: {schema: {type: object}}}\n",
    "openapi-31.yaml": "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n"
    "  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
    "          content: {application/json: {schema: {$ref: 'a.schema.json'}}}\n",
    "asyncapi.yaml": "asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\n",
    "a.schema.json": '{"$schema": "https://json-schema.org/draft/2020-12/schema", '
    '"type": "object", "properties": {"a": {"enum": ["x", "y"]}}, "examples": [{"a": "x"}]}',
    "b.schema.json": '{"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}',
    "page.md": '# Page\n\nThe `a` is one of `x` | `y`.\n\n```json\n{"a": "x"}\n```\n',
}


def _warm() -> None:
    """Build, in this process, what every request's forked rules would otherwise build each
    time: the rule modules, the imports they defer, and their first-use caches (``_WARM_UP``).
    Its findings are not kept; a failure only means a colder first request."""
    all_rules()  # imports every rule module
    with contextlib.suppress(Exception):
        lint_corpus(Context.from_texts(_WARM_UP), Options(debug=True, time_limit=WARM_UP_LIMIT))


class Daemon:
    def __init__(self, root: Path, idle: float) -> None:
        self.root = root.resolve()
        self.idle = idle
        self.resident = Resident(self.root, writes=True)
        self.code = installed_code()
        self.started = time.time()
        self.served = 0
        self.stopping = False

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request (already checked to come from this user)."""
        command = request.get("command")
        if request.get("protocol") == PROTOCOL and command == "stop":
            self.stopping = True  # whoever asks is this user: any of theirs may stop it
            return {"stopped": True}
        if (
            request.get("protocol") != PROTOCOL
            or request.get("root") != str(self.root)
            or request.get("installation") != installation()
        ):
            return {"refused": f"this daemon serves {self.root} for {installation()!r}"}
        if command == "status":
            return {
                "pid": os.getpid(),
                "started": self.started,
                "served": self.served,
                "files": len(self.resident.files.kept),
                "documents": len(self.resident.documents.kept),
            }
        if command != "run":
            return {"refused": f"unknown command {command!r}"}
        if installed_code() != self.code:
            self.stopping = True
            return {"restart": "speclint was upgraded under this daemon"}
        argv, cwd, env = request.get("argv"), request.get("cwd"), request.get("env")
        umask = request.get("umask", 0o022)
        if not (
            isinstance(argv, list)
            and argv
            and all(isinstance(a, str) for a in argv)
            and argv[0] in COMMANDS
            and DEBUG_FLAG not in argv
            and isinstance(cwd, str)
            and "\x00" not in cwd
            and isinstance(env, dict)
            and all(_settable(k, v) for k, v in env.items())
            and isinstance(umask, int)
            and 0 <= umask <= 0o777
        ):
            return {"refused": "a malformed request"}
        self.served += 1
        return self.run(argv, cwd, env, umask, request.get("stdout_tty") is True)

    def run(
        self, argv: list[str], cwd: str, env: dict[str, str], umask: int, tty: bool
    ) -> dict[str, Any]:
        """``speclint ARGV`` in ``cwd`` with ``env`` and ``umask``, as the command line runs it,
        its output captured in order."""
        saved_environment = dict(os.environ)
        printed: list[list[Any]] = []
        out, err = _Output(1, printed, tty), _Output(2, printed, False)
        code: int = 0
        try:
            _take_on(env, umask)
            os.chdir(cwd)
            # What a run in its own process says once (a cache folder refused) it says at each
            # request, as that process would.
            warn_afresh()
            token = RESIDENT.set(self.resident)
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    cli.main.main(args=argv, prog_name="speclint", standalone_mode=True)
            except SystemExit as ending:
                code = _exit_code(ending.code, err)
            except Exception:  # the command line's own errors exit 2; this is a defect of ours
                err.write("speclint: internal error in the daemon:\n" + traceback.format_exc())
                code = 2
            finally:
                RESIDENT.reset(token)
        except (OSError, ValueError) as error:
            err.write(f"speclint: {cwd}: {error}\n")
            code = 2
        finally:
            os.chdir("/")
            _take_on(saved_environment, DAEMON_UMASK)
        return {"output": printed, "code": code}

    def serve(self, warm: dict[str, Any] | None = None, lock: int | None = None) -> None:
        """Listen and answer until idle or stopped. ``warm``: the command a checker the hook
        started runs first, before its socket is in place (``lock``, the start lock it holds,
        is let go then)."""
        path = socket_path(self.root)
        if path is None:
            raise click.ClickException("no private folder for the daemon's socket")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        # Bound under a name of its own, then renamed over the root's: two daemons started at
        # once each bind, and the last rename wins; the other sees it and exits. The inode is
        # read before the rename, which keeps it: the name may be another's a moment after.
        temporary = path.with_name(f".{path.stem}.{os.getpid()}.sock")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        try:
            try:
                listener.bind(str(temporary))
                os.chmod(temporary, 0o600)
                listener.listen(16)
                mine = os.lstat(temporary).st_ino
                if warm is not None:
                    _warm()
                    self.warm_up(warm)
                os.replace(temporary, path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)  # left only when the rename did not happen
                if lock is not None:
                    os.close(lock)
        except OSError:
            listener.close()
            raise
        self.resident.write()  # what the warm-up added, once it listens
        if warm is None:
            # Clients may connect from now on; the first is answered once this is done.
            _warm()
        listener.settimeout(TICK)
        last = time.monotonic()
        try:
            while not self.stopping:
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    if time.monotonic() - last > self.idle or not _still_ours(path, mine):
                        break
                    continue
                with connection:
                    self.handle(connection)
                # The answer is sent and the connection closed: what the run added to the
                # caches goes to the cache folder now, in a process of its own.
                self.resident.settle()
                self.resident.write()
                last = time.monotonic()
        finally:
            listener.close()
            self.resident.wait()  # what the last request added is in the folder before it exits
            if _still_ours(path, mine):
                with contextlib.suppress(OSError):
                    os.unlink(path)

    def warm_up(self, warm: dict[str, Any]) -> None:
        """Run the hook's command (``--warm``) once, as a request, in the daemon's own
        environment (the hook's, which started it) without ``GIT_INDEX_FILE`` (git's index of
        that commit may be a temporary file, gone by now); its output is not kept, its time
        goes to the log."""
        began = time.monotonic()
        env = {k: v for k, v in os.environ.items() if k != "GIT_INDEX_FILE"}
        answer = self.run(warm["argv"], warm["cwd"], env, warm["umask"], False)
        documents, results = self.resident.documents, self.resident.results
        self.resident.settle()  # what the folder gave it, made ready before it listens
        print(
            f"speclint daemon {os.getpid()}: warmed with `speclint {' '.join(warm['argv'])}` in "
            f"{time.monotonic() - began:.2f} s (exit {answer['code']}; from the cache folder: "
            f"{self.resident.runs.reads} results, {documents.reads} documents, "
            f"{results.reads} rule entries; parsed {documents.misses} documents, "
            f"{results.misses} rule entries missed)",
            flush=True,
        )

    def handle(self, connection: socket.socket) -> None:
        try:
            if peer_user(connection) not in (None, os.geteuid()):
                return  # another user's process: no answer at all
            request = receive(connection, REQUEST_LIMIT, READ_WAIT)
            answer = self.answer(request)
            connection.settimeout(SEND_WAIT)  # a client that stopped reading holds no one up
            send(
                connection,
                {**answer, "protocol": PROTOCOL, "root": str(self.root), **identity()},
            )
        except (DaemonUnavailable, OSError):
            return  # the client went away, or sent what is not a request: nothing to answer
        except Exception:  # a defect of ours: this request is lost, the daemon serves on
            traceback.print_exc()


def _settable(key: object, value: object) -> bool:
    """Whether ``os.environ[key] = value`` can be: strings, no NUL, no ``=`` in the name."""
    return (
        isinstance(key, str)
        and isinstance(value, str)
        and bool(key)
        and "=" not in key
        and "\x00" not in key
        and "\x00" not in value
    )


def _take_on(env: dict[str, str], umask: int) -> None:
    """The process's environment, time zone, temporary folder and file mode mask as given (the
    client's for a request, the daemon's own after it)."""
    os.environ.clear()
    os.environ.update(env)
    if hasattr(time, "tzset"):
        time.tzset()  # `today()` (waiver expiry) in the client's time zone
    tempfile.tempdir = None  # read from TMPDIR again
    os.umask(umask)


def _exit_code(code: object, err: _Output) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    err.write(f"{code}\n")  # sys.exit("message") prints the message and exits 1
    return 1


def _still_ours(path: Path, inode: int) -> bool:
    try:
        return os.lstat(path).st_ino == inode
    except OSError:
        return False


def serve(root: Path, idle: float, warm: dict[str, Any] | None = None) -> None:
    """Run the daemon of ``root`` in this process until it stops (see the module docstring).
    With ``warm`` (a checker the hook started): only when it takes the start lock within
    ``LOCK_RETRY`` seconds and no daemon answers yet; else it exits at once."""
    root = root.resolve()
    os.chdir("/")  # nothing of the folder it was started from: it may be deleted, or a fork's
    os.umask(DAEMON_UMASK)
    lock = None
    if warm is not None:
        path = socket_path(root)
        try:
            if path is None:
                raise DaemonUnavailable("no private folder for its socket")
            lock = start_lock(path, wait=LOCK_RETRY)
        except DaemonUnavailable as error:
            print(f"speclint daemon {os.getpid()}: not started: {error}", flush=True)
            return
        if answering(path):
            os.close(lock)
            print(f"speclint daemon {os.getpid()}: not started: one answers", flush=True)
            return
    daemon = Daemon(root, idle)
    try:
        with interruptible():
            daemon.serve(warm, lock)
    except Interrupted:
        pass


def main(argv: list[str] | None = None) -> None:
    """``python -m speclint.frontends.daemon [--idle-timeout SECONDS] [--warm REQUEST] ROOT``:
    what the client starts in the background (``speclint.frontends.client.start``, and
    ``start_behind`` with ``--warm``: the hook's command line, working folder and file mode mask
    as JSON)."""
    parser = argparse.ArgumentParser(prog="python -m speclint.frontends.daemon")
    parser.add_argument("--idle-timeout", type=float, default=IDLE_TIMEOUT)
    parser.add_argument("--warm", type=_warm_request, default=None)
    parser.add_argument("root", type=Path)
    arguments = parser.parse_args(argv)
    if not arguments.root.is_dir() or not (
        math.isfinite(arguments.idle_timeout) and arguments.idle_timeout > 0
    ):
        parser.error("ROOT must be a folder and --idle-timeout a positive number of seconds")
    serve(arguments.root, arguments.idle_timeout, arguments.warm)


def _warm_request(text: str) -> dict[str, Any]:
    """``--warm``'s JSON: a hook's command line, its working folder and file mode mask."""
    try:
        warm = json.loads(text)
    except ValueError:
        warm = None
    if not (
        isinstance(warm, dict)
        and isinstance(warm.get("argv"), list)
        and warm["argv"][:1] == ["hook"]
        and all(isinstance(word, str) for word in warm["argv"])
        and DEBUG_FLAG not in warm["argv"]
        and isinstance(warm.get("cwd"), str)
        and "\x00" not in warm["cwd"]
        and isinstance(warm.get("umask"), int)
        and 0 <= warm["umask"] <= 0o777
    ):
        raise argparse.ArgumentTypeError("a hook's command line, folder and mask, as JSON")
    return warm


if __name__ == "__main__":
    main()
