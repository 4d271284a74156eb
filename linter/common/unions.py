"""Disjoint sets (union-find): which items a chain of pairwise links joins into one group.

Used where pairs found one at a time make groups: the copies of a file across version folders
(``speclint.run.history``), the definitions one drift links (``copy-drift``)."""

from __future__ import annotations


class DisjointSets:
    """Items joined by ``union``; ``find`` names each item's group by one member of it."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, item: str) -> str:
        parent = self.parent
        while parent.setdefault(item, item) != item:
            parent[item] = parent[parent[item]]  # path halving
            item = parent[item]
        return item

    def union(self, first: str, second: str) -> str:
        """Join the groups of ``first`` and ``second``; the smaller name leads (deterministic)."""
        a, b = self.find(first), self.find(second)
        if a != b:
            self.parent[max(a, b)] = min(a, b)
        return min(a, b)
