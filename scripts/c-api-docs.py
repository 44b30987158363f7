#!/usr/bin/env python3
"""Writes docs/c-api.md, the C API reference, from include/chesscore.h and its doc comments.

    python3 scripts/c-api-docs.py            # rewrites docs/c-api.md
    python3 scripts/c-api-docs.py --stdout   # prints it instead (the test compares the two)

Functions are grouped by family, the family found from the function's name with FAMILIES
below (an exact name first, else the longest prefix); a function no family claims stops the
script, so a new family is named here before it is documented. Plain python3, no packages.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = ROOT / "include" / "chesscore.h"
OUTPUT = ROOT / "docs" / "c-api.md"

# (title, guide page, names and prefixes): a name ending in "_" is a prefix, any other an exact name.
FAMILIES = [
    ("Version and errors", "c.md", ["chess_version", "chess_version_number", "chess_error_message"]),
    ("Position", "c.md", ["chess_position_"]),
    ("Move generation", "c.md", ["chess_legal_moves", "chess_legal_moves_from", "chess_pseudo_legal_moves",
                                 "chess_perft", "chess_perft_divide"]),
    ("Engine embedding (a search's calls)", "engines.md",
     ["chess_legal_captures", "chess_legal_quiets", "chess_position_gives_check", "chess_position_see",
      "chess_position_see_ge", "chess_position_zobrist_after", "chess_position_is_pseudo_legal"]),
    ("Move and square", "c.md", ["chess_move_", "chess_square_"]),
    ("FEN", "formats.md", ["chess_fen_"]),
    ("UCI", "formats.md", ["chess_move_to_uci", "chess_move_to_uci_with", "chess_move_from_uci"]),
    ("SAN", "formats.md", ["chess_move_to_san", "chess_move_from_san", "chess_move_from_san_with",
                           "chess_moves_from_line", "chess_legal_moves_san"]),
    ("Game", "c.md", ["chess_game_"]),
    ("Game tags, export and main line", "pgn.md",
     ["chess_game_tag", "chess_game_tag_count", "chess_game_tag_at", "chess_game_tags", "chess_game_set_tag",
      "chess_game_remove_tag", "chess_game_warning_count", "chess_game_warning", "chess_game_result",
      "chess_game_to_pgn", "chess_game_mainline_"]),
    ("Node (a game's move tree)", "pgn.md", ["chess_node_"]),
    ("PGN reader", "pgn.md", ["chess_pgn_"]),
    ("EPD", "formats.md", ["chess_epd_"]),
    ("Polyglot book", "books.md", ["chess_book_"]),
    ("Polyglot book builder", "books.md", ["chess_book_builder_"]),
    ("UCI engine", "engines.md", ["chess_engine_"]),
    ("Engine analysis", "engines.md", ["chess_analysis_"]),
    ("Binary FEN", "formats.md", ["chess_binary_fen_", "chess_position_to_binary_fen"]),
    ("Training data (binpack)", "formats.md", ["chess_binpack_"]),
    ("Board pictures (SVG)", "svg.md", ["chess_svg_", "chess_position_to_svg"]),
    ("Syzygy tablebases", "tablebases.md", ["chess_tablebase_"]),
]

ERROR_NAME = re.compile(r"\bCHESS_(?:ERR_[A-Z0-9_]*[A-Z0-9]|END|OK)\b")
ERRORS_AS_FOR = re.compile(r"Errors as for `(chess_[a-z0-9_]+)`")
CODE_SPAN = re.compile(r"`(chess_[a-z0-9_]+)`")


def family_of(name):
    """The index in FAMILIES of the family that claims `name`."""
    best, best_len = None, -1
    for index, (_, _, names) in enumerate(FAMILIES):
        for entry in names:
            if entry == name:
                return index
            if entry.endswith("_") and name.startswith(entry) and len(entry) > best_len:
                best, best_len = index, len(entry)
    if best is None:
        sys.exit(f"c-api-docs.py: no family for {name}: add it to FAMILIES")
    return best


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
    """The header's items in order: (kind, name, declaration, doc paragraphs)."""
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
    by_family = [[] for _ in FAMILIES]
    for item in items:
        if item[0] == "function":
            by_family[family_of(item[1])].append(item)

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
    for (title, _, _), members in zip(FAMILIES, by_family):
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        out.append(f"- [{title}](#{anchor}) ({len(members)})")
    out += ["- [Types](#types)", "- [Error codes](#error-codes)", "- [Other constants](#other-constants)", ""]

    for (title, guide, _), members in zip(FAMILIES, by_family):
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
