#!/usr/bin/env python3
"""Writes docs/c-api.md, the C API reference, from include/chesscore.h and its doc comments.

    python3 scripts/c-api-docs.py            # rewrites docs/c-api.md
    python3 scripts/c-api-docs.py --stdout   # prints it instead (the test compares the two)

Functions are grouped by family in the header's order: build.rs names the families (by prefix,
with their guide page) and writes a heading before each. Plain python3, no packages.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "chesscore.h"
OUTPUT = ROOT / "docs" / "c-api.md"

# The heading build.rs writes before each family of functions (the header sorts them by name).
FAMILY_HEADING = re.compile(r"^/\* =+ (.+) \((chess_[a-z0-9_]+)\*; guide: docs/(\S+)\) =+ \*/$")

ERROR_NAME = re.compile(r"\bCHESS_(?:ERR_[A-Z0-9_]*[A-Z0-9]|END|OK)\b")
ERRORS_AS_FOR = re.compile(r"Errors as for `(chess_[a-z0-9_]+)`")
CODE_SPAN = re.compile(r"`(chess_[a-z0-9_]+)`")


def doc_text(comment_lines):
    """A doc comment's text as Markdown paragraphs (its lines joined, blank lines kept)."""
    paragraphs, current = [], []
    for line in comment_lines:
        line = line.strip()
        for prefix in ("/**", "*/", "*"):
            if line.startswith(prefix):
                line = line[len(prefix):]
                break
        if line.endswith("*/"):
            line = line[:-2]
        line = line.strip()
        if line:
            current.append(line)
        elif current:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return paragraphs


def parse(header):
    """The header's items in order: (kind, name, declaration, doc paragraphs); a family heading
    is ("family", title, guide page, [])."""
    items, doc, depth = [], [], 0
    lines = header.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if depth == 0 and line.startswith("/**"):
            comment = [line]
            while not line.rstrip().endswith("*/"):
                i += 1
                line = lines[i]
                comment.append(line)
            doc = doc_text(comment)
        elif FAMILY_HEADING.match(line):
            title, _, guide = FAMILY_HEADING.match(line).groups()
            items.append(("family", title, guide, []))
        elif line.startswith("#define CHESS_") and "(" in line.split(None, 2)[1]:
            # A function-like macro, defined once per compiler: listed once, by its first definition.
            name = line.split(None, 2)[1]
            if not any(item[1] == name for item in items):
                items.append(("constant", name, "(an attribute, or nothing)", doc))
            doc = []
        elif line.startswith("#define CHESS_"):
            _, name, value = line.split(None, 2)
            items.append(("constant", name, value.strip(), doc))
            doc = []
        elif line.startswith("typedef"):
            declaration = [line]
            if line.rstrip().endswith("{"):
                while not lines[i].startswith("}"):
                    i += 1
                    declaration.append(lines[i])
            text = "\n".join(declaration)
            name = re.findall(r"\b(chess_[a-z0-9_]+)\b", declaration[-1])[-1]
            if "(*" in text:
                name = re.search(r"\(\*(chess_[a-z0-9_]+)\)", text).group(1)
            items.append(("type", name, text, doc))
            doc = []
        elif line and line[0].isalpha() and "(" in line and not line.startswith(("typedef", "extern")):
            declaration = [line]
            while not lines[i].rstrip().endswith(";"):
                i += 1
                declaration.append(lines[i])
            text = "\n".join(declaration)
            name = re.search(r"(chess_[a-z0-9_]+)\(", text).group(1)
            items.append(("function", name, text, doc))
            doc = []
        elif line.strip() and not line.startswith(("#", "//", "/*")) and line.strip() not in ("}", "{"):
            doc = []
        i += 1
    return items


def linked(paragraph, names, name):
    """`chess_x` code spans naming another function or type become links to its entry."""
    return CODE_SPAN.sub(lambda m: f"[`{m.group(1)}`](#{m.group(1)})"
                         if m.group(1) in names and m.group(1) != name else m.group(0), paragraph)


def errors_line(declaration, doc):
    """The error codes a chess_error function's doc comment names, plus the conventions' ones."""
    text = " ".join(doc)
    codes = [c for c in dict.fromkeys(ERROR_NAME.findall(text)) if c != "CHESS_OK"]
    parts = [", ".join(f"`{c}`" for c in codes)] if codes else []
    parts += [f"those of [`{f}`](#{f})" for f in dict.fromkeys(ERRORS_AS_FOR.findall(text))]
    conventions = []
    if "*" in declaration.split("(", 1)[1] and "CHESS_ERR_NULL_POINTER" not in codes:
        conventions.append("`CHESS_ERR_NULL_POINTER`")
    if re.search(r"char \*buf,\s*size_t cap", declaration) and "CHESS_ERR_BUFFER_TOO_SMALL" not in codes:
        conventions.append("`CHESS_ERR_BUFFER_TOO_SMALL`")
    if conventions:
        parts.append("by the [conventions](c.md#api-conventions) " + " and ".join(conventions))
    return "**Codes besides `CHESS_OK`:** " + ("; ".join(parts) if parts else "none named") + "."


def render(items):
    functions = {name for kind, name, _, _ in items if kind == "function"}
    linkable = {name for kind, name, _, _ in items if kind in ("function", "type")}
    families = []  # (title, guide, functions), in the header's order
    for item in items:
        if item[0] == "family":
            families.append((item[1], item[2], []))
        elif item[0] == "function":
            if not families:
                sys.exit(f"c-api-docs.py: {item[1]} comes before any family heading")
            families[-1][2].append(item)

    out = [
        "# C API reference",
        "",
        "Generated from `include/chesscore.h` by `scripts/c-api-docs.py`; do not edit by hand",
        "(`scripts/update-header.sh` regenerates both, and a test fails while this page is stale).",
        "The rules every function follows (names, ownership, buffers, NULL, threads, versions) are",
        "in the [C guide](c.md); each family's guide page is linked under its title.",
        "",
        f"{len(functions)} functions, {sum(k == 'type' for k, *_ in items)} types, "
        f"{sum(k == 'constant' for k, *_ in items)} constants.",
        "",
        "## Contents",
        "",
    ]
    for title, _, members in families:
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        out.append(f"- [{title}](#{anchor}) ({len(members)})")
    out += ["- [Types](#types)", "- [Error codes](#error-codes)", "- [Other constants](#other-constants)", ""]

    for title, guide, members in families:
        out += [f"## {title}", "", f"Guide: [{guide}]({guide}).", ""]
        for _, name, declaration, doc in members:
            out += [f"### `{name}`", "", "```c", declaration, "```", ""]
            for paragraph in doc:
                out += [linked(paragraph, linkable, name), ""]
            if declaration.startswith("chess_error "):
                out += [errors_line(declaration, doc), ""]

    out += ["## Types", ""]
    for kind, name, declaration, doc in items:
        if kind == "type":
            out += [f"### `{name}`", "", "```c", declaration, "```", ""]
            for paragraph in doc:
                out += [linked(paragraph, linkable, name), ""]

    for title, wanted in (("Error codes", True), ("Other constants", False)):
        out += [f"## {title}", "", "| name | value | meaning |", "| --- | --- | --- |"]
        for kind, name, value, doc in items:
            is_error = name.startswith("CHESS_ERR_") or name in ("CHESS_OK", "CHESS_END")
            if kind == "constant" and is_error == wanted:
                meaning = linked(" ".join(doc), linkable, name).replace("|", "\\|")
                out.append(f"| `{name}` | `{value}` | {meaning} |")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main():
    text = render(parse(HEADER.read_text(encoding="utf-8")))
    if sys.argv[1:] == ["--stdout"]:
        sys.stdout.write(text)
    elif not sys.argv[1:]:
        OUTPUT.write_text(text, encoding="utf-8")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
