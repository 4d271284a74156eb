"""``curl`` commands in a shell fence, read as curl(1) reads its options, never run.

Specification pages show a call to their API as a ``curl`` command more often than in any other
way. Two readers use what is read here, once: the HTTP exchange a fence shows
(``speclint.parsing.http_requests``: the operation and the body sent) and the routes a page
names (``speclint.parsing.routes``). :func:`curl_commands` gives each command's

- method: ``-X``/``--request``'s value as written; else, as curl decides it, ``HEAD`` for
  ``-I``/``--head``, ``GET`` for ``-G``/``--get`` (the data goes in the query), ``POST`` where
  data or a form is sent (``-d``/``--data*``, ``--json``, ``-F``/``--form*``), ``PUT`` for an
  upload (``-T``), ``GET`` else;
- URL: the first word that is no option nor an option's value (or ``--url``'s);
- data: each ``-d``/``--data*``/``--json`` value, with the option that gave it;
- headers: each ``-H``/``--header`` field (and the two ``--json`` adds).

Words are split as a POSIX shell splits them (quotes, backslash escapes, a backslash at a line's
end continuing the command, ``#`` comments), each with where it is written in the fence's text,
so that a reader can point at the URL or place the body where it stands. A console prompt
(``$ ``, ``> ``, ``PS> ``) is no word. Commands end at a line's end, at ``|``, ``;``, ``&&``,
``||`` and at a ``&`` written as a word of its own: a ``&`` glued inside an unquoted URL
(``?a=1&b=2``) is read as the query documentation means, not as the shell's background
operator, and ``<`` inside a word (``/runs/<run_id>``) as a placeholder, not a redirection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from speclint.parsing.shell import command_words

# curl(1)'s short options that take a value; the others are flags, and several may be written
# together (`-sSL`), the last one taking a value (`-sXPOST`, `-sd '{…}'`).
_SHORT_VALUED = frozenset("XHduoAebcFwmTxKErCDUYyztPQ")
# curl(1)'s long options that take a value: the next word (or what follows `=`) is that value,
# not the URL.
_LONG_VALUED = frozenset(
    {"--request", "--header", "--data", "--data-raw", "--data-binary", "--data-ascii",
     "--data-urlencode", "--json", "--form", "--form-string", "--user", "--output",
     "--user-agent", "--referer", "--cookie", "--cookie-jar", "--write-out", "--upload-file",
     "--max-time", "--connect-timeout", "--cacert", "--capath", "--cert", "--cert-type", "--key",
     "--key-type", "--proxy", "--proxy-user", "--proxy-header", "--preproxy", "--noproxy",
     "--url", "--retry", "--retry-delay", "--retry-max-time", "--config", "--resolve",
     "--connect-to", "--oauth2-bearer", "--range", "--limit-rate", "--max-redirs", "--aws-sigv4",
     "--variable", "--expand-url", "--expand-data", "--expand-header", "--dump-header",
     "--continue-at", "--time-cond", "--unix-socket", "--abstract-unix-socket", "--interface",
     "--dns-servers", "--trace", "--trace-ascii", "--stderr", "--netrc-file", "--keepalive-time",
     "--speed-limit", "--speed-time", "--request-target", "--socks5", "--socks5-hostname"}
)  # fmt: skip
# The short options' long names, where what is read of a command depends on them.
_LONG = {"-X": "--request", "-H": "--header", "-d": "--data", "-F": "--form", "-T": "--upload-file",
         "-I": "--head", "-G": "--get"}  # fmt: skip
# Options whose value is data sent in the body (in the query with `-G`).
DATA_OPTIONS = frozenset(
    {"--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "--json"}
)
_FORM_OPTIONS = frozenset({"--form", "--form-string"})
_PROMPTS = ("$ ", "> ", "PS> ")
_SEPARATORS = frozenset({"|", "||", "&&", ";", "&"})
# A backslash that ends a line continues the command; one with spaces after it too, as
# documentation writes it (`-d '…' \ ` then a newline: a shell would end the command).
_CONTINUED = re.compile(r"\\[ \t]*\n")


@dataclass(frozen=True)
class Word:
    """A shell word: its text as the shell reads it (quotes removed), where it is written in the
    text (``start`` to ``stop``), and whether its text is the text between them (no quote or
    escape taken out)."""

    text: str
    start: int
    stop: int
    verbatim: bool


@dataclass(frozen=True)
class CurlCommand:
    """A ``curl`` command as curl reads it."""

    method: str  # as written after -X (case kept), else the one curl's options imply
    url: Word | None
    data: tuple[tuple[str, Word], ...]  # (long option, value) of each data option, in order
    headers: tuple[tuple[str, str], ...]  # (name, value) of each header field sent
    get: bool  # `-G`: the data is sent in the URL's query, no body
    start: int  # where the `curl` word is written


def shell_words(text: str) -> list[Word | None]:
    """The shell words of ``text`` with where each is written; None where a command ends."""
    found: list[Word | None] = []
    index, length = _after_prompt(text, 0), len(text)
    while index < length:
        char = text[index]
        if char == "\n":
            found.append(None)
            index = _after_prompt(text, index + 1)
            continue
        if char in " \t":
            index += 1
            continue
        continued = _CONTINUED.match(text, index)
        if continued is not None:
            index = continued.end()  # a continued line
            continue
        if char == "#" and (not found or found[-1] is None or text[index - 1] in " \t"):
            while index < length and text[index] != "\n":
                index += 1
            continue
        if char in "|;" or text.startswith("&&", index):
            found.append(None)  # `a|b`, `a;b`, `a && b`, `a || b`
            index += 2 if text.startswith(("||", "&&"), index) else 1
            continue
        start, parts, verbatim = index, list[str](), True
        while index < length and text[index] not in " \t\n|;":
            char = text[index]
            if char in "'\"":
                close = index + 1
                while close < length and text[close] != char:
                    if char == '"' and text[close] == "\\":
                        close += 1
                        verbatim = False
                    close += 1
                inner = text[index + 1 : close]
                if char == '"' and not verbatim:
                    inner = re.sub(r"\\(.)", r"\1", inner, flags=re.S)
                parts.append(inner)
                index = close + 1
                continue
            if char == "\\" and index + 1 < length:
                if _CONTINUED.match(text, index):
                    break
                parts.append(text[index + 1])
                verbatim = False
                index += 2
                continue
            if text.startswith("&&", index):
                break
            parts.append(char)
            index += 1
        word = "".join(parts)
        found.append(None if word in _SEPARATORS else Word(word, start, index, verbatim))
    return found


def _after_prompt(text: str, index: int) -> int:
    """Where a line starting at ``index`` begins after a console prompt (``index`` if none)."""
    start = index
    while start < len(text) and text[start] in " \t":
        start += 1
    prompt = next((p for p in _PROMPTS if text.startswith(p, start)), "")
    return start + len(prompt) if prompt else index


def curl_commands(text: str) -> list[CurlCommand]:
    """Each ``curl`` command of ``text`` (a launcher, variables set before it, a folder before
    its name allowed: ``sudo``, ``TOKEN=x curl``, ``/usr/bin/curl``), as curl reads it."""
    commands: list[list[Word]] = [[]]
    for word in shell_words(text):
        if word is None:
            commands.append([])
        else:
            commands[-1].append(word)
    found = []
    for words in commands:
        own = command_words([word.text for word in words])
        if own and own[0] == "curl":
            found.append(_read(words[len(words) - len(own) :]))
    return found


def _read(words: list[Word]) -> CurlCommand:
    method, url = "", None
    data: list[tuple[str, Word]] = []
    headers: list[tuple[str, str]] = []
    head = get = form = upload = False
    index = 1
    while index < len(words):
        word = words[index]
        index += 1
        options: list[tuple[str, Word | None]] = []
        if word.text.startswith("--"):
            option, equals, attached = word.text.partition("=")
            value = None
            if option in _LONG_VALUED:
                if equals:
                    value = Word(attached, word.start, word.stop, False)
                elif index < len(words):
                    value, index = words[index], index + 1
            options.append((option, value))
        elif word.text.startswith("-") and len(word.text) > 1:
            for at, letter in enumerate(word.text[1:], start=2):
                if letter not in _SHORT_VALUED:
                    options.append((_LONG.get("-" + letter, "-" + letter), None))
                    continue
                value = None
                if at < len(word.text):  # `-XPOST`, `-d'{…}'`: the rest of the word
                    value = Word(word.text[at:], word.start, word.stop, word.verbatim)
                elif index < len(words):
                    value, index = words[index], index + 1
                options.append((_LONG.get("-" + letter, "-" + letter), value))
                break
        elif url is None:
            url = word
        for option, value in options:
            if option == "--head":
                head = True
            elif option == "--get":
                get = True
            elif value is None:
                continue
            elif option == "--request":
                method = value.text
            elif option == "--url":
                url = url or value
            elif option in DATA_OPTIONS:
                data.append((option, value))
                if option == "--json":
                    # curl(1) --json: "--data [arg] --header "Content-Type: application/json"
                    # --header "Accept: application/json""
                    headers += [
                        ("Content-Type", "application/json"),
                        ("Accept", "application/json"),
                    ]
            elif option in _FORM_OPTIONS:
                form = True
            elif option == "--upload-file":
                upload = True
            elif option == "--header":
                name, colon, field = value.text.partition(":")
                if colon:
                    headers.append((name.strip(), field.strip()))
    if not method:
        # curl(1): -I makes a HEAD request; -G puts the data in the query of a GET; -d, --json
        # and -F send a POST; -T an upload, a PUT over HTTP.
        if head:
            method = "HEAD"
        elif get:
            method = "GET"
        elif data or form:
            method = "POST"
        else:
            method = "PUT" if upload else "GET"
    return CurlCommand(method, url, tuple(data), tuple(headers), get, words[0].start)
