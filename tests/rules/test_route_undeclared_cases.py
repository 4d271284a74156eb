"""route-undeclared: the cases its documentation leaves to the tests, each named after it."""

from __future__ import annotations

from speclint.parsing.routes import segments_in_text


def test_route_undeclared_reads_a_one_segment_path_only_where_it_joins_words() -> None:
    # `/order_status` and `/meta-graph` are spelt as routes are; `/tmp` is as often a folder
    text = "Poll /order_status or /meta-graph; scratch files go to /tmp and /archive."
    assert [path for path, _ in segments_in_text(text)] == ["/order_status", "/meta-graph"]
    # a path after a method is a route of its own, read elsewhere
    assert list(segments_in_text("Send GET /order_status to poll.")) == []
