"""A text's lines, as ``text.split("\\n")`` gives them, kept as where each starts.

A document keeps its lines for the rules that look around a position (``Document.lines``). As a
list they are a second copy of the text, each line a string object of its own: on OpenWOP ten
times over, 37 MB of the parent's 335 MB after the parse, shared with every forked worker and
sent, pickled, from each parsing process to the parent. :class:`Lines` keeps the text (the
document's own, not a copy) and one integer per line, and makes a line when it is read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload


class Lines(Sequence[str]):
    """``text.split("\\n")`` as a read-only sequence: the same length, items, slices and
    iteration, without holding the pieces."""

    __slots__ = ("_starts", "_text")

    def __init__(self, text: str | None) -> None:
        """``text``'s lines; None (no text) has none, where ``""`` has one, empty."""
        self._text = text or ""
        # Where line n starts; one past the end of the text closes the last (its "\n" counted).
        pieces = text.split("\n") if text is not None else []
        self._starts = array("q", accumulate((len(line) + 1 for line in pieces), initial=0))

    def __len__(self) -> int:
        return len(self._starts) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._line(n) for n in range(*index.indices(len(self)))]
        count = len(self)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line index out of range")
        return self._line(index)

    def _line(self, index: int) -> str:
        return self._text[self._starts[index] : self._starts[index + 1] - 1]

    def __iter__(self) -> Iterator[str]:
        # All of them: the C split, let go when the caller is done with it.
        return iter(self._text.split("\n") if len(self._starts) > 1 else ())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines | list):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared by content, as a list is

    def __repr__(self) -> str:
        return f"Lines({len(self)} lines)"
