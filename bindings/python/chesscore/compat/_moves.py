"""python-chess's ``Piece`` and ``Move``, and the library's moves as ``Move`` objects."""

from __future__ import annotations

from typing import Dict, Optional

from .. import types as _types
from ..errors import ErrorCode, InvalidMoveError
from ._squares import BLACK, PIECE_SYMBOLS, PIECE_TYPES, SQUARE_NAMES, UNICODE_PIECE_SYMBOLS, WHITE, PieceType, Square, piece_symbol


class Piece(_types.Piece):
    """A piece: ``piece_type`` (PAWN .. KING) and ``color``; the package's ``Piece`` with
    python-chess's ``unicode_symbol``.

    >>> import chesscore.compat as chess
    >>> chess.Piece.from_symbol("n"), chess.Piece(chess.QUEEN, chess.WHITE).unicode_symbol()
    (Piece.from_symbol('n'), '♕')
    """

    __slots__ = ()

    def __init__(self, piece_type: PieceType, color: bool) -> None:
        # Unchecked, as python-chess's dataclass (the package's Piece checks its arguments).
        self.piece_type = piece_type
        self.color = color

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a FEN letter (upper case for White); ValueError for another string."""
        kind = PIECE_SYMBOLS.index(symbol.lower())
        return cls(kind, symbol.isupper())

    def __hash__(self) -> int:
        # The piece's index, White's pawn to king 0-5 and Black's 6-11, as python-chess hashes it.
        return self.piece_type - 1 + (0 if self.color else 6)

    def unicode_symbol(self, *, invert_color: bool = False) -> str:
        symbol = self.symbol().swapcase() if invert_color else self.symbol()
        return UNICODE_PIECE_SYMBOLS[symbol]


# Square names and piece letters (lower case) to their numbers, for reading UCI.
_SQUARES = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
_KINDS = {PIECE_SYMBOLS[kind]: kind for kind in PIECE_TYPES}

# chess_piece codes (kind | color << 3) to the shared Piece objects.
PIECES: Dict[int, Optional[Piece]] = {0: None}
for _color, _bits in ((WHITE, 0), (BLACK, 8)):
    for _kind in PIECE_TYPES:
        PIECES[_kind | _bits] = Piece(_kind, _color)


_PLACED = frozenset(PIECE_TYPES)


def code_of(piece: Optional[Piece]) -> int:
    """The chess_piece a board edit puts on a square: 0 (empty) for None, and for a piece type
    outside PAWN..KING, which python-chess's boards do not place either."""
    if piece is None or piece.piece_type not in _PLACED:
        return 0
    return piece.piece_type | (0 if piece.color else 8)


class Move:
    """A move as python-chess's: ``from_square``, ``to_square``, ``promotion`` and ``drop``
    (a piece type for a drop such as ``P@e4``, which boards refuse in standard chess). Castling is the king's move two files in standard chess (``e1g1``), the
    king taking its rook in Chess960. Moves compare and hash by those fields only.

    >>> import chesscore.compat as chess
    >>> move = chess.Move.from_uci("e7e8q")
    >>> move.to_square == chess.E8, move.promotion == chess.QUEEN, move.uci()
    (True, True, 'e7e8q')
    >>> chess.Move.null(), bool(chess.Move.null())
    (Move.from_uci('0000'), False)
    """

    # _raw: the library's encoding, for a move that came from a position (its kind is known);
    # None for a move built here, which a position resolves through its UCI.
    __slots__ = ("from_square", "to_square", "promotion", "drop", "_raw")

    def __init__(
        self, from_square: Square, to_square: Square, promotion: Optional[PieceType] = None, drop: Optional[PieceType] = None
    ) -> None:
        self.from_square = from_square
        self.to_square = to_square
        self.promotion = promotion
        self.drop = drop
        self._raw: Optional[int] = None

    @classmethod
    def from_uci(cls, uci: str) -> Move:
        """The move a UCI text names (InvalidMoveError when it is not one): ``0000`` is the null
        move, ``P@e4`` a drop (which no standard board plays), a promotion letter is lower
        case (any piece's, as python-chess reads them)."""
        if uci == "0000":
            return cls.null()
        if len(uci) not in (4, 5):
            raise InvalidMoveError(ErrorCode.UCI_SYNTAX, f"a UCI move has 4 or 5 characters: {uci!r}")
        if len(uci) == 4 and uci[1] == "@" and uci[0].lower() in _KINDS and uci[2:] in _SQUARES:
            to_square = _SQUARES[uci[2:]]
            return cls(to_square, to_square, drop=_KINDS[uci[0].lower()])
        if uci[:2] in _SQUARES and uci[2:4] in _SQUARES and (len(uci) == 4 or uci[4] in _KINDS):
            from_square, to_square = _SQUARES[uci[:2]], _SQUARES[uci[2:4]]
            if from_square == to_square:
                raise InvalidMoveError(ErrorCode.UCI_SYNTAX, f"invalid uci (use 0000 for null moves): {uci!r}")
            return cls(from_square, to_square, _KINDS[uci[4]] if len(uci) == 5 else None)
        raise InvalidMoveError(ErrorCode.UCI_SYNTAX, f"invalid uci: {uci!r}")

    @classmethod
    def null(cls) -> Move:
        move = cls(0, 0)
        move._raw = 0
        return move

    def uci(self) -> str:
        if self.drop:
            return piece_symbol(self.drop).upper() + "@" + SQUARE_NAMES[self.to_square]
        if not self:
            return "0000"
        promotion = piece_symbol(self.promotion) if self.promotion else ""
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square] + promotion

    def xboard(self) -> str:
        return self.uci() if self else "@@@@"

    def __bool__(self) -> bool:
        return bool(self.from_square or self.to_square or self.promotion or self.drop)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (self.from_square, self.to_square, self.promotion, self.drop) == (
            other.from_square,
            other.to_square,
            other.promotion,
            other.drop,
        )

    def __hash__(self) -> int:
        return hash((self.from_square, self.to_square, self.promotion, self.drop))

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def __str__(self) -> str:
        return self.uci()


class _MoveTable(Dict[int, Move]):
    """The library's moves (by encoding) as Move objects, each made once, from the package's
    Move the first time it is asked for: one table for standard chess and one for Chess960,
    whose castling reads differently (the king taking its rook)."""

    def __init__(self, chess960: bool) -> None:
        super().__init__()
        self._chess960 = chess960

    def __missing__(self, raw: int) -> Move:
        move = Move.from_uci(_types.Move(raw, self._chess960).uci())
        move._raw = raw
        self[raw] = move
        return move


# The tables by chess960 (False, True).
MOVES = (_MoveTable(False), _MoveTable(True))


def move_of(raw: int, chess960: bool) -> Move:
    """The Move of a chess_move played in a standard (or a Chess960) position."""
    return MOVES[chess960][raw]
