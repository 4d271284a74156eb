"""The front of ``speclint check``: a run whose inputs have not changed is answered from the replay
cache (``speclint.run.replay``) before the command line, the engine, the rules or the reporters
are imported; any other run is recorded on its way, for the next one.

Only a command with nothing to produce but what it prints is answered or recorded: ``check``
with its report on standard output in a format that reads nothing but the run's result
(``FORMATS``), and none of ``--output``, ``--baseline``, ``--diff-base``, ``--debug``,
``--no-cache`` (or ``SPECLINT_NO_CACHE``), ``--daemon``, ``--progress``, ``--help``: each of
those writes a file, reads one the key does not hold, judges a change, or asks for something
else. A command line with a word this module does not know is never answered: it runs as it
always has. The command line is read word by word as click reads it, and the recording checks
its reading against the command's own (the corpus root, the part reported on, ``--config``)
before it keeps anything.

A recorded run wrote through the standard streams (:class:`_Tee` keeps what passes); it is
kept only when it ended with exit code 0 or 1 after ``check`` said what it ran (not interrupted,
no usage or internal error, no rule stopped by its time box, no progress bar drawn), nothing
wrote around the streams (their ``buffer`` or descriptor), and the key made again after the run
is the one made before it (nothing changed while it ran).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from speclint.common.cache_folder import TEMPORARY, corpus_folder, enabled
from speclint.frontends.client import COMMANDS
from speclint.run.replay import (
    FOLDER,
    Inputs,
    Printed,
    Recorded,
    keep,
    read_again,
    recall,
    replay_key,
)
from speclint.run.roots import RootError, Scope, scope_of

# Report formats that print the run's result and nothing else (``markdown``, ``github`` and
# ``gitlab`` ask git where the repository is and read GitHub's variables; ``html`` lists the
# bindings, which only a parsed corpus has).
FORMATS = frozenset({"text", "json", "sarif", "junit", "markdown-summary", "afp"})
# ``check``'s flags a replay can answer (``--daemon``, ``--debug``, ``--progress`` and
# ``--no-cache`` ask for something else).
FLAGS = frozenset(
    {
        "-q",
        "--quiet",
        "--preview",
        "--no-preview",
        "--exit-zero",
        "--statistics",
        "--color",
        "--no-color",
        "--no-progress",
        "--cache",
    }
)
# ``check``'s options that take a value a replay can answer: the client's table of them (which a
# test holds to the command's definition), less those that write a file, read one the key does
# not hold, or judge a change.
UNANSWERED = frozenset({"-o", "--output", "--baseline", "--diff-base"})
VALUED = COMMANDS["check"] - UNANSWERED


@dataclass(frozen=True)
class _Command:
    """A ``check`` command line as click reads it: its paths and its ``--config``."""

    paths: tuple[Path, ...]
    config: Path | None


def _read(argv: Sequence[str]) -> _Command | None:
    """The command line, when it is a ``check`` a replay can answer; else None."""
    if not argv or argv[0] != "check" or not enabled():
        return None
    paths: list[str] = []
    config: str | None = None
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            paths.extend(words)
            break
        if not word.startswith("-"):
            paths.append(word)
            continue
        # A long option may carry its value after "=", a short one never here: "-f=json" and
        # clusters ("-qf json") are left to click.
        name, equals, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if name in FLAGS and not equals:
            continue
        if name not in VALUED:
            return None  # "-", --output, --help, --debug, a typo...: the command says
        if not equals:
            given = next(words, None)
            if given is None:
                return None
            value = given
        if name in ("-f", "--format") and value not in FORMATS:
            return None
        if name == "--config":
            config = value
    return _Command(tuple(Path(p) for p in paths), Path(config) if config else None)


@dataclass
class Recording:
    """A ``check`` run on its way: the key of its inputs, made before it, and what it prints."""

    argv: tuple[str, ...]
    command: _Command
    scope: Scope
    folder: Path
    key: str
    environment: dict[str, str]
    cwd: str
    printed: Printed = field(default_factory=list)
    # Something wrote around the streams (their buffer, their descriptor), or a write failed.
    around: bool = False
    pid: int = field(default_factory=os.getpid)

    @property
    def spoken(self) -> Path:
        """A file a forked child (a rule's worker) makes when it writes to a standard stream:
        what it writes reaches the stream, not this process's record."""
        return self.folder / FOLDER / f"{TEMPORARY}spoken-{self.pid}-{self.key}"

    told: tuple[Scope, Path | None, Inputs | None, bool] | None = None


_recording: Recording | None = None


def front(argv: Sequence[str]) -> Recording | None:
    """Answer the command from the replay cache (printing what the run printed, then ending
    with its exit code), or the recording to make of it, or None when it is not one to answer
    (the module docstring)."""
    command = _read(argv)
    if command is None:
        return None
    try:
        scope = scope_of(command.paths)
        if not scope.root.is_dir():
            return None
        folder = corpus_folder(scope.root)
        if folder is None:
            return None
        environment, cwd = dict(os.environ), os.getcwd()
        key = replay_key(argv, scope, command.config, environment, cwd)
        recorded = recall(folder, key)
        inputs = read_again(scope.root, recorded.inputs) if recorded is not None else None
    except (RootError, OSError):
        return None  # the command says what is wrong (a folder gone, one it cannot read)
    if recorded is not None and inputs is not None:
        if inputs is not recorded.inputs:
            # Files read again that gave the same, with statuses settled since: the next replay
            # takes them as read (git refreshes its index so).
            with contextlib.suppress(OSError):
                keep(folder, key, replace(recorded, inputs=inputs))
        _replay(recorded.printed)
        sys.exit(recorded.code)
    return Recording(tuple(argv), command, scope, folder, key, environment, cwd)


def _replay(printed: Printed) -> None:
    """Write what the run printed, each stream flushed before the other is written to, as the
    run's did (click flushes after every line): two streams sent to one file interleave as
    they did."""
    last: TextIO | None = None
    for number, text in printed:
        stream = sys.stdout if number == 1 else sys.stderr
        if last is not None and stream is not last:
            last.flush()
        stream.write(text)
        last = stream
    if last is not None:
        last.flush()


def recording() -> bool:
    """Whether this ``check`` is recorded (then the engine names the files it read)."""
    return _recording is not None


def checked(scope: Scope, config: Path | None, inputs: Inputs | None, drawn: bool) -> None:
    """``check`` says what it ran: the corpus root and part it reported on, its ``--config``,
    the files whose bytes made the run's result (None: a result not to keep), and whether it
    drew a progress bar (time-dependent output is not replayed)."""
    if _recording is not None:
        _recording.told = (scope, config, inputs, drawn)


@contextmanager
def recorded(recording: Recording) -> Iterator[None]:
    """Run the command with its output kept, and keep it when the run may be replayed."""
    global _recording
    out, err = sys.stdout, sys.stderr
    sys.stdout = _Tee(out, 1, recording)  # type: ignore[assignment]
    sys.stderr = _Tee(err, 2, recording)  # type: ignore[assignment]
    _recording = recording
    try:
        yield
    except SystemExit as ending:
        sys.stdout, sys.stderr = out, err
        _recording = None
        try:
            # What the streams still hold is written before the run counts as printed.
            out.flush()
            err.flush()
        except (OSError, ValueError):
            recording.around = True
        with contextlib.suppress(OSError):
            _keep(recording, ending.code)
        raise
    finally:
        sys.stdout, sys.stderr = out, err
        _recording = None
        with contextlib.suppress(OSError):
            os.unlink(recording.spoken)


def _keep(recording: Recording, code: Any) -> None:
    told = recording.told
    if told is None or recording.around or type(code) is not int or code not in (0, 1):
        return
    if os.path.lexists(recording.spoken):
        return
    scope, config, inputs, drawn = told
    if inputs is None or drawn or scope != recording.scope or config != recording.command.config:
        return
    # Nothing the key holds changed while the run ran (the files it read are checked by their
    # digests, made of what the run read, and their statuses as it read them).
    again = replay_key(
        recording.argv,
        recording.scope,
        recording.command.config,
        recording.environment,
        recording.cwd,
    )
    if again != recording.key:
        return
    keep(recording.folder, recording.key, Recorded(inputs, _joined(recording.printed), code))


def _joined(printed: Printed) -> Printed:
    """The writes to each stream joined while the other stream is not written to."""
    joined: list[tuple[int, list[str]]] = []
    for number, text in printed:
        if joined and joined[-1][0] == number:
            joined[-1][1].append(text)
        else:
            joined.append((number, [text]))
    return [(number, "".join(texts)) for number, texts in joined]


class _Tee:
    """A standard stream for a recorded run: what is written to it is written through and kept
    in order with the other stream's; anything reaching past it (to its buffer or descriptor)
    marks the run as one not to keep."""

    _AROUND = frozenset({"buffer", "fileno", "detach", "raw"})

    def __init__(self, stream: TextIO, number: int, recording: Recording) -> None:
        self._stream = stream
        self._number = number
        self._recording = recording

    def write(self, text: str) -> int:
        recording = self._recording
        if text and os.getpid() != recording.pid:
            _mark(recording.spoken)
        if not isinstance(text, str):
            # click asks whether the stream takes bytes by writing b"" (a text stream raises
            # TypeError); bytes it takes are not kept.
            written = self._stream.write(text)
            recording.around = recording.around or bool(text)
            return written
        try:
            written = self._stream.write(text)
        except BaseException:
            recording.around = True  # a broken pipe, an encoding error: not all was printed
            raise
        if text:
            recording.printed.append((self._number, text))
        return written

    def writelines(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BaseException:
            self._recording.around = True
            raise

    def __getattr__(self, name: str) -> Any:
        if name in self._AROUND:
            self._recording.around = True
        return getattr(self._stream, name)


def _mark(path: Path) -> None:
    with contextlib.suppress(OSError):
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        os.close(os.open(path, flags, 0o600))
