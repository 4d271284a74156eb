"""``python -m speclint``: the command line, with SIGINT and SIGTERM handled from the start.

The handlers are installed before the command line and its dependencies are imported (a quarter of a
second, more under load), so a signal at any moment ends the run the same way: one line, and the
shell's exit code (130 or 143).
"""

from speclint.lifecycle import Interrupted, exit_interrupted, interruptible

try:
    with interruptible():
        from speclint.cli import entry

        entry()
except Interrupted as interruption:
    exit_interrupted(interruption)
