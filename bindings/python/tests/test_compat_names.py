"""Every public name of python-chess's `chess`, `chess.pgn`, `chess.polyglot`, `chess.variant` and `chess.engine` modules, and of
their classes, is either in chesscore.compat or in the list of differences of docs/python.md
(its section "What compat does not match"), so that the list stays complete as python-chess or
compat change. A name python-chess merely imports (a module, a `typing` helper) is no API."""

import collections.abc
import re
import types
import typing

import chess
import chess.pgn
import chess.polyglot
import chess.variant
import chess.engine

import chesscore.compat
import chesscore.compat.pgn
import chesscore.compat.polyglot
import chesscore.compat.variant
import chesscore.compat.engine

from conftest import ROOT

# With each module, whether its classes' attributes are enumerated too. chess.variant's board
# classes inherit all of `chess.Board`: their methods are compared by test_compat_variant.py, and
# what they lack is listed in words; the module's own names are enumerated here.
MODULES = [
    (chess, chesscore.compat, True),
    (chess.pgn, chesscore.compat.pgn, True),
    (chess.polyglot, chesscore.compat.polyglot, True),
    (chess.variant, chesscore.compat.variant, False),
    (chess.engine, chesscore.compat.engine, False),
]
SECTION = "### What compat does not match"


def is_import(name, value):
    """True for what a module imports rather than defines: modules and the standard library's
    typing helpers, under their own names."""
    if isinstance(value, types.ModuleType) or name == "annotations":
        return True
    return any(getattr(source, name, None) is value for source in (typing, types, collections.abc))


def made(cls):
    """An object of `cls` made without arguments, or None where it needs some."""
    try:
        return cls()
    except Exception:
        return None


def python_chess_names():
    """Every public name, as `chess.X` or `chess.pgn.Class.attribute`, with whether compat
    has it."""
    names = {}
    for theirs, ours, members in MODULES:
        for name in dir(theirs):
            value = getattr(theirs, name)
            if name.startswith("_") or is_import(name, value):
                continue
            names[f"{theirs.__name__}.{name}"] = hasattr(ours, name)
            if members and isinstance(value, type) and value.__module__ == theirs.__name__ and hasattr(ours, name):
                mine = getattr(ours, name)
                for attribute in dir(value):
                    if not attribute.startswith("_"):
                        names[f"{theirs.__name__}.{name}.{attribute}"] = hasattr(mine, attribute)
                # What an object of the class holds (a board's `ep_square`, `pawns`, ...).
                theirs_object, mine_object = made(value), made(mine)
                for attribute in getattr(theirs_object, "__dict__", {}):
                    if not attribute.startswith("_"):
                        names[f"{theirs.__name__}.{name}.{attribute}"] = hasattr(mine_object, attribute)
    return names


def listed_differences():
    """The names the documentation lists as not provided or not matching python-chess."""
    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    assert SECTION in text, f"docs/python.md lacks the section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"`(chess(?:\.\w+)+)", section))


def test_every_python_chess_name_is_provided_or_listed():
    names = python_chess_names()
    assert len(names) > 400, "python-chess's names were not enumerated"
    listed = listed_differences()
    missing = sorted(name for name, provided in names.items() if not provided and name not in listed)
    assert not missing, f"{len(missing)} names neither in compat nor in docs/python.md: {missing}"


def test_the_list_names_only_python_chess_names():
    names = python_chess_names()
    # A class listed whole covers its attributes; a stale or misspelt entry must go.
    unknown = sorted(name for name in listed_differences() if name not in names)
    assert not unknown, f"docs/python.md lists names python-chess does not have: {unknown}"
