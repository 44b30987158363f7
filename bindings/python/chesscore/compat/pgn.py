"""python-chess's ``chess.pgn`` for reading: ``read_game``, ``read_headers``, and the games'
move trees (``Game``, ``ChildNode``) with their comments and NAGs. The library reads and checks
the PGN; a node's board is the position the library replayed.

    >>> import io
    >>> import chesscore.compat.pgn
    >>> pgn = io.StringIO('[White "Morphy"]\\n\\n1. e4 {best} e5 (1... c5 $1) 2. Nf3 *\\n')
    >>> game = chesscore.compat.pgn.read_game(pgn)
    >>> game.headers["White"], game.headers["Result"]
    ('Morphy', '*')
    >>> [move.uci() for move in game.mainline_moves()]
    ['e2e4', 'e7e5', 'g1f3']
    >>> node = game.next()
    >>> node.comment, [v.san() for v in node.variations], node.variations[1].nags
    ('best', ['e5', 'c5'], {1})
    >>> game.end().board().fen()
    'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
    >>> chesscore.compat.pgn.read_game(pgn) is None
    True
"""

from __future__ import annotations

import weakref
from typing import IO, Dict, Iterator, List, Optional, Set

from .. import _native
from .._native import lib
from ..engine import Cp, Mate, PovScore
from ..game import Game as _CoreGame
from ..game import GameMove
from ..svg import Arrow
from ..pgn import read_pgn
from ._board import Board
from ._moves import Move
from ._moves import move_of as _move_of

__all__ = ["ChildNode", "Game", "GameNode", "Headers", "Mainline", "read_game", "read_headers"]

NODE_NONE = 0xFFFF_FFFF
COMMENT_AFTER = 0
COMMENT_BEFORE = 1
# The Seven Tag Roster with python-chess's placeholders, which every Game's headers start from.
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2"}
_ROSTER = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*"}


class Headers(Dict[str, str]):
    """The tags of a game: the Seven Tag Roster first (``?`` where the PGN has none), then the
    others in the order read."""

    def __init__(self, tags: Optional[Dict[str, str]] = None) -> None:
        super().__init__(_ROSTER)
        if tags:
            self.update(tags)


class GameNode:
    """A node of a game's move tree: the root (a ``Game``) or a move (``ChildNode``)."""

    __slots__ = ("_root", "_node")

    def __init__(self, root: Game, node: int) -> None:
        self._root = root
        self._node = node

    @property
    def _ptr(self) -> object:
        return self._root._core._ptr

    def _commands(self) -> GameMove:
        # The package's GameMove reads a node's comments, NAGs and comment commands; a node is
        # a move of the same game handle.
        return GameMove(self._root._core, self._node)

    @property
    def comment(self) -> str:
        """The comment after the move (a Game's: before the first move); several are joined by
        a space."""
        return " ".join(self._commands().comments)

    @property
    def nags(self) -> Set[int]:
        return set(self._commands().nags)

    def clock(self) -> Optional[float]:
        """``[%clk ...]`` of the comment: the mover's time left, in seconds; None if absent."""
        return self._commands().clock

    def emt(self) -> Optional[float]:
        """``[%emt ...]`` of the comment: the time the move took, in seconds; None if absent."""
        return self._commands().emt

    def eval(self) -> Optional[PovScore]:
        """``[%eval ...]`` of the comment, as python-chess gives it: from White's side."""
        found = self._commands().eval
        if found is None:
            return None
        return PovScore(Mate(found.mate) if found.mate is not None else Cp(found.cp), True)

    def eval_depth(self) -> Optional[int]:
        """The depth of ``[%eval ...]``, when given."""
        found = self._commands().eval
        return None if found is None else found.depth

    def arrows(self) -> List[Arrow]:
        """``[%csl ...]`` and ``[%cal ...]`` of the comment: a highlighted square is an arrow whose
        tail is its head, as in python-chess."""
        commands = self._commands()
        marks = [Arrow(h.square, h.square, h.color) for h in commands.highlights]
        return marks + list(commands.arrows)

    @property
    def variations(self) -> List[ChildNode]:
        """The moves continuing from here, the main one first."""
        out = []
        child = lib.chess_node_first_child(self._ptr, self._node)
        while child != NODE_NONE:
            out.append(ChildNode(self._root, child))
            child = lib.chess_node_next_sibling(self._ptr, child)
        return out

    def variation(self, index: int) -> ChildNode:
        return self.variations[index]

    def next(self) -> Optional[ChildNode]:
        """The main continuation, else None."""
        child = lib.chess_node_first_child(self._ptr, self._node)
        return None if child == NODE_NONE else ChildNode(self._root, child)

    def is_end(self) -> bool:
        return lib.chess_node_first_child(self._ptr, self._node) == NODE_NONE  # type: ignore[no-any-return]

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node: GameNode = self
        following = node.next()
        while following is not None:
            node, following = following, following.next()
        return node

    def mainline(self) -> Iterator[ChildNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> Mainline:
        return Mainline(self)

    def game(self) -> Game:
        return self._root

    def board(self) -> Board:
        """A new board holding the position at this node."""
        pos = _native.Position()
        _native.check(lib.chess_node_position(self._ptr, self._node, pos))
        return Board._of_position(pos, self._root._chess960)

    def ply(self) -> int:
        """The half-moves up to this node, counted as the board's ``ply()`` counts them: from
        the start position's move number and side to move."""
        start = self._root._core.start()
        return 2 * (start.fullmove_number - 1) + (not start.turn) + self._commands().ply

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameNode):
            return NotImplemented
        return self._root is other._root and self._node == other._node

    def __hash__(self) -> int:
        return hash((id(self._root), self._node))


class ChildNode(GameNode):
    """A move of the tree, with the node it follows (``parent``)."""

    __slots__ = ()

    @property
    def move(self) -> Move:
        return _move_of(self._commands().move.raw, self._root._chess960)

    @property
    def parent(self) -> GameNode:
        parent = lib.chess_node_parent(self._ptr, self._node)
        return self._root if parent == 0 else ChildNode(self._root, parent)

    @property
    def starting_comment(self) -> str:
        """The comment before the move, as a variation can open with: ``({here} 1. d4)``."""
        ptr, node = self._ptr, self._node
        count = lib.chess_node_comment_count(ptr, node, COMMENT_BEFORE)
        return " ".join(
            _native.read_text(lib.chess_node_comment, ptr, node, COMMENT_BEFORE, i, size=256) for i in range(count)
        )

    def san(self) -> str:
        """The move's SAN as the library writes it (``O-O`` for a ``0-0`` read, ``--`` for a
        null move)."""
        move = lib.chess_node_move(self._ptr, self._node)
        if not move:
            return "--"
        before = _native.Position()
        _native.check(lib.chess_node_position(self._ptr, lib.chess_node_parent(self._ptr, self._node), before))
        return _native.read_text(lib.chess_move_to_san, before, move, size=_native.SAN_MAX)

    def uci(self) -> str:
        return self.move.uci()

    def is_mainline(self) -> bool:
        node: GameNode = self
        while isinstance(node, ChildNode):
            parent = node.parent
            if parent.next() != node:
                return False
            node = parent
        return True

    def __repr__(self) -> str:
        return f"<ChildNode at {id(self):#x} ({self.ply()}. {self.san()} ...)>"


class Game(GameNode):
    """A game read from PGN: ``headers``, ``errors`` (the problem of a broken game, which holds
    what was read before it), and the move tree from the start position (``board()``)."""

    __slots__ = ("_core", "_chess960", "headers", "errors", "__weakref__")

    def __init__(self, core: _CoreGame) -> None:
        super().__init__(self, 0)
        self._core = core
        self._chess960 = core.start().chess960
        self.headers = Headers(core.headers)
        if self.headers["Result"] == "*":  # the movetext's result fills in a missing one
            self.headers["Result"] = _RESULTS[lib.chess_game_result(core._ptr)]
        self.errors: List[Exception] = [] if core.error is None else [core.error]

    @classmethod
    def from_board(cls, board: Board) -> Game:
        """A game of the moves of ``board``'s stack from its root."""
        return cls(board._core_game())

    def __str__(self) -> str:
        core = self._core
        core.headers = dict(self.headers)
        return core.pgn()

    def __repr__(self) -> str:
        return f"<Game at {id(self):#x} ({self.headers.get('White', '?')!r} vs. {self.headers.get('Black', '?')!r})>"


class Mainline:
    """The moves of a main line: iterable, reversible, with a length and a truth value."""

    __slots__ = ("_start",)

    def __init__(self, start: GameNode) -> None:
        self._start = start

    def __iter__(self) -> Iterator[Move]:
        return (node.move for node in self._start.mainline())

    def __reversed__(self) -> Iterator[Move]:
        return reversed(list(self))

    def __len__(self) -> int:
        return sum(1 for _ in self._start.mainline())

    def __bool__(self) -> bool:
        return not self._start.is_end()

    def __repr__(self) -> str:
        return f"<Mainline at {id(self):#x} ({' '.join(move.uci() for move in self)})>"


# One reader per open handle: the library reads ahead, so the games after the first come from
# the same reader, whatever the handle's position says.
_READERS: "weakref.WeakKeyDictionary[IO[str], Iterator[_CoreGame]]" = weakref.WeakKeyDictionary()


def _next_game(handle: IO[str]) -> Optional[_CoreGame]:
    games = _READERS.get(handle)
    if games is None:
        games = read_pgn(handle)
        _READERS[handle] = games
    return next(games, None)


def read_game(handle: IO[str]) -> Optional[Game]:
    """The next game of a PGN stream (text or binary), else None at its end."""
    core = _next_game(handle)
    return None if core is None else Game(core)


def read_headers(handle: IO[str]) -> Optional[Headers]:
    """The headers of the next game of a PGN stream, else None at its end."""
    core = _next_game(handle)
    return None if core is None else Headers(core.headers)
