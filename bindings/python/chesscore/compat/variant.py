"""python-chess's ``chess.variant`` over the library's variant positions: ``import
chesscore.compat.variant`` gives ``chess.variant`` the lichess variants' board classes,
``find_variant`` and ``VARIANTS``.

    >>> import chesscore.compat as chess
    >>> import chesscore.compat.variant
    >>> board = chess.variant.CrazyhouseBoard()
    >>> for san in ["e4", "d5", "exd5", "Qxd5"]:
    ...     _ = board.push_san(san)
    >>> board.pockets[chess.WHITE].count(chess.PAWN), str(board.pockets[chess.BLACK])
    (1, 'p')
    >>> chess.Move.from_uci("P@e6") in board.legal_moves, board.san(chess.Move.from_uci("P@e6"))
    (True, '@e6')
    >>> chess.variant.find_variant("koth").uci_variant
    'kingofthehill'

Every rule is the library's (``chesscore.variant.VariantPosition``): a board keeps its
position and the positions before each move of its stack, and converts moves, pieces and
outcomes to python-chess's types. docs/python.md ("chesscore.compat") lists what differs.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Type, TypeVar, Union

from ..errors import ErrorCode, IllegalMoveError
from ..game import Game
from ..types import Move as _CoreMove
from ..types import MoveKind
from ..variant import Variant, VariantPosition
from ._baseboard import BaseBoard, board_fen_of
from ._board import Board
from ._epd import read_variant_epd, write_epd
from ._moves import Move, Piece
from ._outcome import Outcome, Status, Termination
from ._squares import (
    BB_ALL,
    BB_BACKRANKS,
    BB_RANK_1,
    BB_RANK_8,
    PAWN,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    QUEEN,
    SQUARE_NAMES,
    WHITE,
    Bitboard,
    Color,
    PieceType,
    Square,
    SquareSet,
    piece_symbol,
)

VariantBoardT = TypeVar("VariantBoardT", bound="VariantBoard")

# Texts python-chess's parse_san reads as the null move.
_NULL_SANS = ("--", "Z0", "0000", "@@@@")
# The default FEN argument: the class's starting_fen.
_START: Any = object()


class CrazyhousePocket:
    """A crazyhouse pocket: a count of pieces by type (``CrazyhousePocket("qpp")``).
    ``str()`` gives the pieces as lower-case letters, queens first."""

    __slots__ = ("_own",)

    def __init__(self, symbols: Iterable[str] = "") -> None:
        self._own = dict.fromkeys(PIECE_TYPES, 0)
        for symbol in symbols:
            self.add(PIECE_SYMBOLS.index(symbol))

    # The counts by piece type; a board's pocket reads and writes its board's.
    @property
    def _counts(self) -> Dict[PieceType, int]:
        return dict(self._own)

    @_counts.setter
    def _counts(self, counts: Dict[PieceType, int]) -> None:
        self._own = counts

    def reset(self) -> None:
        self._counts = dict.fromkeys(PIECE_TYPES, 0)

    def add(self, piece_type: PieceType) -> None:
        counts = self._counts
        counts[piece_type] += 1
        self._counts = counts

    def remove(self, piece_type: PieceType) -> None:
        """Takes a piece out (ValueError when there is none of that type)."""
        counts = self._counts
        if not counts[piece_type]:
            raise ValueError(f"no {piece_symbol(piece_type)} in {self!r}")
        counts[piece_type] -= 1
        self._counts = counts

    def count(self, piece_type: PieceType) -> int:
        return self._counts[piece_type]

    def __str__(self) -> str:
        counts = self._counts
        return "".join(piece_symbol(kind) * counts[kind] for kind in reversed(PIECE_TYPES))

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __repr__(self) -> str:
        return f"CrazyhousePocket('{self}')"

    def copy(self) -> CrazyhousePocket:
        """A pocket of its own with the same pieces."""
        pocket = CrazyhousePocket()
        pocket._counts = self._counts
        return pocket


class _BoardPocket(CrazyhousePocket):
    """One side's pocket of a crazyhouse board, as python-chess's ``board.pockets[color]``:
    it shows the board's pocket as it is now, and changing it changes the board's (its
    move stack kept)."""

    __slots__ = ("_board", "_color")

    def __init__(self, board: CrazyhouseBoard, color: Color) -> None:
        self._board, self._color = board, color

    @property
    def _counts(self) -> Dict[PieceType, int]:
        counts = dict.fromkeys(PIECE_TYPES, 0)
        counts.update(self._board._pos.pocket(self._color))
        return counts

    @_counts.setter
    def _counts(self, counts: Dict[PieceType, int]) -> None:
        self._board._set_pocket(self._color, counts)


class _RemainingChecks(List[int]):
    """A three-check board's ``remaining_checks``: the counts by colour when read; setting one
    sets the board's (its move stack kept)."""

    def __init__(self, board: ThreeCheckBoard) -> None:
        super().__init__([board._pos.remaining_checks(False), board._pos.remaining_checks(True)])
        self._board = board

    def __setitem__(self, color: Any, count: Any) -> None:
        super().__setitem__(color, count)
        self._board._set_fields(checks=f"{self[True]}+{self[False]}")


class _LegalMoves:
    """``board.legal_moves`` of a variant board: the library's legal moves (len, in,
    iteration, ``count()``)."""

    __slots__ = ("_board",)

    def __init__(self, board: VariantBoard) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(list(self._board._legal()))

    def __len__(self) -> int:
        return self.count()

    def __bool__(self) -> bool:
        return self.count() > 0

    def count(self) -> int:
        return len(self._board._legal())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and move in self._board._legal()

    def __repr__(self) -> str:
        sans = ", ".join(map(self._board.san, self))
        return f"<LegalMoveGenerator at {id(self):#x} ({sans})>"


class _PseudoLegalMoves(_LegalMoves):
    """``board.pseudo_legal_moves`` of a variant board, as python-chess's: iteration gives
    ``generate_pseudo_legal_moves()`` (no drops), ``in`` asks ``is_pseudo_legal`` (drops
    too)."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Move]:
        return self._board.generate_pseudo_legal_moves()

    def count(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_pseudo_legal(move)

    def __repr__(self) -> str:
        return f"<PseudoLegalMoveGenerator at {id(self):#x} ({', '.join(map(Move.uci, self))})>"


class VariantBoard:
    """The board classes' common part: a ``VariantPosition`` of the class's variant, the moves
    played (``move_stack``) and the positions before them. ``Cls()`` is the variant's start,
    ``Cls(fen)`` reads a FEN of the variant (ValueError when the library cannot read it as a
    position of it). Only legal moves (and the null move) can be pushed."""

    _variant = Variant.CHESS
    aliases: List[str] = []
    uci_variant: Optional[str] = None
    xboard_variant: Optional[str] = None
    starting_fen = ""
    tbw_suffix: Optional[str] = None
    tbz_suffix: Optional[str] = None
    tbw_magic: Optional[bytes] = None
    tbz_magic: Optional[bytes] = None
    pawnless_tbw_suffix: Optional[str] = None
    pawnless_tbz_suffix: Optional[str] = None
    pawnless_tbw_magic: Optional[bytes] = None
    pawnless_tbz_magic: Optional[bytes] = None
    connected_kings = False
    one_king = True
    captures_compulsory = False

    # _pos: the current position; _before: the position before each move of move_stack;
    # _moves and _pseudo: the legal and the pseudo-legal moves of _pos (compat Move to the
    # library's), None until asked for.
    __slots__ = ("_pos", "_before", "_moves", "_pseudo", "_history", "move_stack", "__weakref__")
    _pos: VariantPosition
    _before: List[VariantPosition]
    _moves: Optional[Dict[Move, _CoreMove]]
    _pseudo: Optional[Dict[Move, _CoreMove]]
    # The library's game of the move stack, kept once made (repetitions need the history).
    _history: Optional[Game]
    move_stack: List[Move]

    def __init__(self, fen: Optional[str] = _START, chess960: bool = False) -> None:
        if chess960:
            raise ValueError(f"{type(self).__name__} has no Chess960 mode")
        if fen is None:
            raise ValueError("a variant board cannot be empty")
        self._set_position(self._read(type(self).starting_fen if fen is _START else fen))

    @classmethod
    def _read(cls, fen: str) -> VariantPosition:
        return VariantPosition.from_fen(cls._variant, fen)

    def __getstate__(self) -> Tuple[None, Dict[str, object]]:
        # The positions and the moves; not the caches, nor the library's game of the stack
        # (a handle of this process), made again when asked for.
        state = {"_pos": self._pos, "_before": self._before, "move_stack": self.move_stack}
        return None, {**state, "_moves": None, "_pseudo": None, "_history": None}

    def _set_position(self, pos: VariantPosition) -> None:
        self._pos, self._before, self.move_stack, self._moves, self._pseudo = pos, [], [], None, None
        self._history = None

    @classmethod
    def _of(cls: Type[VariantBoardT], pos: VariantPosition) -> VariantBoardT:
        board = cls.__new__(cls)
        board._set_position(pos)
        return board

    # -- FEN and text

    def fen(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        """The FEN as python-chess writes it (crazyhouse pockets and promoted pieces ``Q~``,
        three-check counters); ``promoted=False`` leaves out the ``~`` marks, ``shredder=True``
        writes the castling rooks' files (``HAha``), and ``en_passant`` says which en passant
        square to write: ``"legal"`` when a capture is legal, ``"xfen"`` when one is
        pseudo-legal, ``"fen"`` whenever a double push left one."""
        if en_passant not in ("legal", "xfen", "fen"):
            raise ValueError(f"en_passant must be 'legal', 'xfen' or 'fen', not {en_passant!r}")
        board, *fields = self._pos.fen().split(" ")
        if promoted is False:
            board = board.replace("~", "")
        if shredder:
            # The rooks' files, White's then Black's, each from the h-file.
            rooks = self.castling_rights
            white = [SQUARE_NAMES[sq][0].upper() for sq in reversed(range(8)) if rooks >> sq & 1]
            black = [SQUARE_NAMES[sq][0] for sq in reversed(range(56, 64)) if rooks >> sq & 1]
            fields[1] = "".join(white + black) or "-"
        recorded = self.ep_square
        if en_passant == "fen" or (en_passant == "xfen" and self.has_pseudo_legal_en_passant()):
            fields[2] = "-" if recorded is None else SQUARE_NAMES[recorded]
        return " ".join([board, *fields])

    def shredder_fen(self, *, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(shredder=True, en_passant=en_passant, promoted=promoted)

    def castling_shredder_fen(self) -> str:
        return self.fen(shredder=True).split(" ")[2]

    def set_fen(self, fen: str) -> None:
        self._set_position(self._read(fen))

    def reset(self) -> None:
        self.set_fen(type(self).starting_fen)

    def clear_stack(self) -> None:
        self._before, self.move_stack, self._history = [], [], None

    def _set_fields(
        self,
        *,
        placement: Optional[str] = None,
        pockets: Optional[str] = None,
        checks: Optional[str] = None,
        turn: Optional[str] = None,
        castling: Optional[str] = None,
        ep: Optional[str] = None,
        halfmove: Optional[int] = None,
        fullmove: Optional[int] = None,
    ) -> None:
        """Rewrites fields of the FEN (what python-chess lets a program change on a board:
        pieces, pockets, counters, side to move, castling, en passant square, clocks), keeping
        the move stack. The library reads the result: ValueError, the board unchanged, when it
        is no position of the variant."""
        board, *fields = self._pos.fen().split(" ")
        old_placement, bracket, old_pockets = board.partition("[")
        placement = old_placement if placement is None else placement
        if pockets is not None:
            bracket, old_pockets = "[", pockets + "]"
        # The en passant square is written only when legal: the recorded one is kept.
        recorded = self._pos.setup().en_passant
        fields[2] = SQUARE_NAMES[recorded] if recorded is not None else "-"
        for i, value in ((0, turn), (1, castling), (2, ep), (3, checks), (-2, halfmove), (-1, fullmove)):
            if value is not None:
                fields[i] = str(value)
        self._pos = self._read(" ".join([placement + bracket + old_pockets, *fields]))
        self._moves = self._pseudo = self._history = None

    def board_fen(self, *, promoted: Optional[bool] = False) -> str:
        """The FEN's piece placement (crazyhouse writes promoted pieces ``Q~`` unless
        ``promoted=False``)."""
        placement = self._pos.fen().split(" ", 1)[0].split("[", 1)[0]
        return placement if promoted else placement.replace("~", "")

    def epd(self, *, shredder: bool = False, en_passant: str = "legal", promoted: Optional[bool] = None, **operations: object) -> str:
        """The FEN without its clocks, then the operations (as ``chess.Board.epd``)."""
        fen = self.fen(shredder=shredder, en_passant=en_passant, promoted=promoted)
        fields = fen.split(" ")
        ops = write_epd(self, fen, operations)[len(" ".join(fields[:4])) :]  # type: ignore[arg-type]
        return " ".join(fields[:-2]) + ops

    @classmethod
    def from_epd(cls: Type[VariantBoardT], epd: str, *, chess960: bool = False) -> Tuple[VariantBoardT, Dict[str, object]]:
        """A board of an EPD line of the variant and its operations (see ``set_epd``)."""
        board = cls(chess960=chess960)
        return board, board.set_epd(epd)

    def set_epd(self, epd: str) -> Dict[str, object]:
        """Reads an EPD line of the variant into this board (crazyhouse pockets in the
        placement, three-check's remaining checks after the en passant square: ``2+1``, 3 each
        when left out), its clocks from ``hmvc`` and ``fmvn``, and gives its operations as
        ``chess.Board.set_epd`` does (moves in the variant's SAN, drops among them)."""
        return read_variant_epd(self, epd)

    def _position(self) -> VariantPosition:
        """A copy of the current position (what ``chess.svg.board`` draws)."""
        return self._pos.copy()

    def _repr_svg_(self) -> str:
        return self._pos._repr_svg_()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r})"

    def __str__(self) -> str:
        return str(self._pieces())

    def unicode(self, **options: object) -> str:
        return self._pieces().unicode(**options)  # type: ignore[arg-type]

    # -- pieces (read from the position's placement)

    def _pieces(self) -> BaseBoard:
        return BaseBoard(self.board_fen(promoted=False))

    def piece_at(self, square: Square) -> Optional[Piece]:
        piece = self._pos.piece_at(square)
        return None if piece is None else Piece(piece.piece_type, piece.color)

    def piece_type_at(self, square: Square) -> Optional[PieceType]:
        piece = self._pos.piece_at(square)
        return None if piece is None else piece.piece_type

    def color_at(self, square: Square) -> Optional[Color]:
        piece = self._pos.piece_at(square)
        return None if piece is None else piece.color

    def piece_map(self, *, mask: Bitboard = BB_ALL) -> Dict[Square, Piece]:
        return self._pieces().piece_map(mask=mask)

    def pieces_mask(self, piece_type: PieceType, color: Color) -> Bitboard:
        return self._pos.setup().pieces_mask(piece_type, color)

    def pieces(self, piece_type: PieceType, color: Color) -> SquareSet:
        return SquareSet(self.pieces_mask(piece_type, color))

    def king(self, color: Color) -> Optional[Square]:
        return self._pos.setup().king(color)

    @property
    def promoted(self) -> Bitboard:
        """The squares of crazyhouse pieces that were promoted pawns."""
        return sum(1 << sq for sq in self._pos.promoted())

    @property
    def occupied(self) -> Bitboard:
        return self._pos.setup().occupied

    @property
    def occupied_co(self) -> List[Bitboard]:
        setup = self._pos.setup()
        return [setup.occupied_co(False), setup.occupied_co(True)]

    # -- state

    @property
    def turn(self) -> Color:
        return self._pos.turn

    @turn.setter
    def turn(self, color: Color) -> None:
        self._set_fields(turn="w" if color else "b")

    @property
    def castling_rights(self) -> Bitboard:
        return self._pos.setup().castling_rooks

    @castling_rights.setter
    def castling_rights(self, rooks: Bitboard) -> None:
        """Keeps the rights of the rooks given (the library drops a right without its king
        and rook on their squares)."""
        letters = {7: "K", 0: "Q", 63: "k", 56: "q"}
        self._set_fields(castling="".join(letters[sq] for sq in (7, 0, 63, 56) if rooks >> sq & 1) or "-")

    @property
    def ep_square(self) -> Optional[Square]:
        """The square a pawn passed over in a double push just played, else None."""
        return self._pos.setup().en_passant

    @ep_square.setter
    def ep_square(self, square: Optional[Square]) -> None:
        """Records an en passant square (the library drops one no double push could have
        left)."""
        self._set_fields(ep="-" if square is None else SQUARE_NAMES[square])

    @property
    def halfmove_clock(self) -> int:
        return self._pos.setup().halfmove_clock

    @halfmove_clock.setter
    def halfmove_clock(self, plies: int) -> None:
        self._set_fields(halfmove=int(plies))

    @property
    def fullmove_number(self) -> int:
        return self._pos.setup().fullmove_number

    @fullmove_number.setter
    def fullmove_number(self, number: int) -> None:
        self._set_fields(fullmove=int(number))

    @property
    def chess960(self) -> bool:
        return False

    def ply(self) -> int:
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    # -- moves

    def _legal(self) -> Dict[Move, _CoreMove]:
        moves = self._moves
        if moves is None:
            pos = self._pos
            moves = self._moves = {Move.from_uci(pos.uci(core)): core for core in pos.legal_moves()}
        return moves

    def _core(self, move: Move) -> _CoreMove:
        """The library's move for a legal ``move`` (the null move too); IllegalMoveError for
        another."""
        if not move:
            return self._pos.parse_uci("0000")
        core = self._legal().get(move)
        if core is None:
            raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"illegal move: {move.uci()!r} in {self.fen()}")
        return core

    def _compat(self, core: _CoreMove) -> Move:
        return Move.from_uci(self._pos.uci(core))

    @property
    def legal_moves(self) -> _LegalMoves:
        return _LegalMoves(self)

    def generate_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The legal moves from a square of ``from_mask`` to one of ``to_mask`` (a drop's
        origin is its square)."""
        return (m for m in list(self._legal()) if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1)

    def is_legal(self, move: Move) -> bool:
        return move in self._legal()

    def _pseudo_legal(self) -> Dict[Move, _CoreMove]:
        moves = self._pseudo
        if moves is None:
            pos = self._pos
            moves = self._pseudo = {Move.from_uci(pos.uci(core)): core for core in pos.pseudo_legal_moves()}
        return moves

    def _kind(self, move: Move) -> Optional[int]:
        """The library's kind of a pseudo-legal move (bits 12-15 of its encoding), else None."""
        core = self._pseudo_legal().get(move)
        return None if core is None else core.raw >> 12

    @property
    def pseudo_legal_moves(self) -> _PseudoLegalMoves:
        return _PseudoLegalMoves(self)

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether the pieces' rules allow ``move`` (a crazyhouse drop of a pocket piece on an
        empty square included), whether or not it leaves the king attacked or the variant
        forbids it."""
        return move in self._pseudo_legal()

    def _select(self, moves: Iterable[Move], from_mask: Bitboard, to_mask: Bitboard, kind: Optional[int] = None) -> Iterator[Move]:
        # The moves listed now (the board may change while the caller iterates).
        for move in list(moves):
            if from_mask >> move.from_square & 1 and to_mask >> move.to_square & 1 and (kind is None or self._kind(move) == kind):
                yield move

    def generate_pseudo_legal_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The pseudo-legal moves of the pieces on the board (crazyhouse's drops apart, as
        python-chess gives them: ``generate_pseudo_legal_drops``)."""
        return self._select((m for m in self._pseudo_legal() if not m.drop), from_mask, to_mask)

    def generate_pseudo_legal_drops(self, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """Crazyhouse: the drops of pocket pieces on empty squares (pawns not on the back
        ranks), whether or not they leave the king in check."""
        return self._select((m for m in self._pseudo_legal() if m.drop), BB_ALL, to_mask)

    def generate_pseudo_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._select(filter(self.is_capture, self.generate_pseudo_legal_moves()), from_mask, to_mask)

    def generate_legal_captures(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._select(filter(self.is_capture, self._legal()), from_mask, to_mask)

    def generate_pseudo_legal_ep(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._select(self._pseudo_legal(), from_mask, to_mask, MoveKind.EN_PASSANT)

    def generate_legal_ep(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return self._select(self._legal(), from_mask, to_mask, MoveKind.EN_PASSANT)

    def generate_castling_moves(self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        """The castling moves the pieces and rights allow, the king passing no attacked
        square (it may still be in check, or the variant forbid it)."""
        return self._select(self._pseudo_legal(), from_mask, to_mask, MoveKind.CASTLING)

    def has_pseudo_legal_en_passant(self) -> bool:
        return any(self.generate_pseudo_legal_ep())

    def has_legal_en_passant(self) -> bool:
        return any(self.generate_legal_ep())

    def has_kingside_castling_rights(self, color: Color) -> bool:
        """Whether ``color`` keeps a castling right with a rook on its king's h-file side."""
        return self._has_castling_side(color, kingside=True)

    def has_queenside_castling_rights(self, color: Color) -> bool:
        return self._has_castling_side(color, kingside=False)

    def _has_castling_side(self, color: Color, *, kingside: bool) -> bool:
        rank = BB_RANK_1 if color else BB_RANK_8
        king = self.pieces_mask(6, color) & rank
        rooks = self.castling_rights & rank
        if not king:
            return False
        return bool(rooks & ~((king << 1) - 1)) if kingside else bool(rooks & (king - 1))

    def checkers_mask(self) -> Bitboard:
        """The pieces giving check to the side to move (none without exactly one king, in
        antichess, or in atomic while the kings touch)."""
        return sum(1 << sq for sq in self._pos.checkers())

    def checkers(self) -> SquareSet:
        return SquareSet(self.checkers_mask())

    def pin_mask(self, color: Color, square: Square) -> Bitboard:
        """The line the piece on ``square`` is pinned along to ``color``'s king, else every
        square (always in antichess, whose king is an ordinary piece)."""
        return self._pos.pin(color, square) or BB_ALL

    def pin(self, color: Color, square: Square) -> SquareSet:
        return SquareSet(self.pin_mask(color, square))

    def is_pinned(self, color: Color, square: Square) -> bool:
        return bool(self._pos.pin(color, square))

    def is_irreversible(self, move: Move) -> bool:
        """Whether the legal ``move`` (or the null move) makes every earlier position
        unreachable: a pawn move or capture, a lost castling right, or an en passant capture
        possible now; a check in three-check; in crazyhouse only a lost castling right. False
        for a move that is not legal."""
        core = self._legal().get(move)
        if not move:
            core = _CoreMove.null()
        return core is not None and self._pos.is_irreversible(core)

    def is_fifty_moves(self) -> bool:
        return self._pos.is_fifty_moves()

    def is_seventyfive_moves(self) -> bool:
        return self._pos.is_seventy_five_moves()

    def can_claim_fifty_moves(self) -> bool:
        return self._pos.can_claim_fifty_moves()

    def find_move(self, from_square: Square, to_square: Square, promotion: Optional[PieceType] = None) -> Move:
        """The legal move from and to the squares (a queen promotion for a pawn reaching the
        back rank unless ``promotion`` says otherwise; castling also as the king taking its
        rook); IllegalMoveError when there is none."""
        if promotion is None and self.pieces_mask(PAWN, self.turn) >> from_square & 1 and BB_BACKRANKS >> to_square & 1:
            promotion = QUEEN
        wanted = Move(from_square, to_square, promotion)
        for move, core in self._legal().items():
            if move == wanted or (core.from_square, core.to_square, move.promotion) == (from_square, to_square, promotion):
                return move
        raise IllegalMoveError(ErrorCode.ILLEGAL_MOVE, f"no legal move from {SQUARE_NAMES[from_square]} to {SQUARE_NAMES[to_square]} in {self.fen()}")

    def lan(self, move: Move) -> str:
        """The long algebraic notation of a legal move (``Ng1-f3``, ``e4xd5``); a drop as in
        SAN (``N@f3``)."""
        if move.drop:
            return self.san(move)
        return Board.lan(self, move)  # type: ignore[arg-type]

    # -- editing (each edit is read back by the library: ValueError when the board would be no
    # position of the variant, and then it is unchanged)

    def _symbols(self) -> Dict[Square, str]:
        promoted = self.promoted
        return {sq: p.symbol() + ("~" if promoted >> sq & 1 else "") for sq, p in self.piece_map().items()}

    def set_piece_at(self, square: Square, piece: Optional[Piece], promoted: bool = False) -> None:
        """Puts ``piece`` on ``square`` (None empties it; ``promoted`` marks a crazyhouse piece
        as a promoted pawn)."""
        symbols = self._symbols()
        symbols.pop(square, None)
        if piece is not None:
            symbols[square] = piece.symbol() + ("~" if promoted and self._variant == Variant.CRAZYHOUSE else "")
        self._set_fields(placement=board_fen_of(symbols))

    def remove_piece_at(self, square: Square) -> Optional[Piece]:
        piece = self.piece_at(square)
        self.set_piece_at(square, None)
        return piece

    def set_piece_map(self, pieces: Mapping[Square, Piece]) -> None:
        self._set_fields(placement=board_fen_of({sq: p.symbol() for sq, p in pieces.items()}))

    def set_board_fen(self, fen: str) -> None:
        self._set_fields(placement=fen.strip())

    def set_castling_fen(self, castling_fen: str) -> None:
        self._set_fields(castling=castling_fen or "-")

    def mirror(self: VariantBoardT) -> VariantBoardT:
        """The board flipped top to bottom with colours, side to move, pockets and remaining
        checks swapped (without the move stack); ValueError when that is no position of the
        variant (horde's pawns must be White's)."""
        return type(self)._of(self._pos.mirror())

    def apply_mirror(self) -> None:
        self._pos = self._pos.mirror()
        self._moves = self._pseudo = self._history = None

    def is_castling(self, move: Move) -> bool:
        return self._kind(move) == MoveKind.CASTLING

    def is_kingside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and move.to_square > move.from_square

    def is_queenside_castling(self, move: Move) -> bool:
        return self.is_castling(move) and move.to_square < move.from_square

    def is_en_passant(self, move: Move) -> bool:
        return self._kind(move) == MoveKind.EN_PASSANT

    def is_capture(self, move: Move) -> bool:
        """A move onto a piece of the other side, or en passant (a drop never captures)."""
        return not move.drop and (self.color_at(move.to_square) == (not self.turn) or self.is_en_passant(move))

    def gives_check(self, move: Move) -> bool:
        """Whether a legal move leaves the other side in check (the library's is_check after
        it; IllegalMoveError for another move)."""
        after = self._pos.copy()
        after.push(self._core(move))
        return after.is_check()

    def push(self, move: Move) -> None:
        """Plays a legal move (or the null move); IllegalMoveError for another."""
        core = self._core(move)
        before = self._pos.copy()
        self._pos.push(core)
        self._before.append(before)
        self.move_stack.append(move)
        self._moves = self._pseudo = None
        if self._history is not None:
            try:
                self._history.push(core)
            except IllegalMoveError:  # the null move: no variant game holds one
                self._history = None

    def pop(self) -> Move:
        """Takes back the last move (IndexError when there is none)."""
        if not self.move_stack:
            raise IndexError("pop from empty move stack")
        self._pos = self._before.pop()
        self._moves = self._pseudo = None
        if self._history is not None:
            self._history.pop()
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def parse_uci(self, uci: str) -> Move:
        """The legal move a UCI text names (drops as ``P@e4``; ``0000`` the null move)."""
        core = self._pos.parse_uci(uci)
        return self._compat(core) if core else Move.null()

    def push_uci(self, uci: str) -> Move:
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def parse_san(self, san: str) -> Move:
        """The legal move a SAN names (drops as ``N@f3``, pawn drops also ``@e4``; ``--`` the
        null move)."""
        if san in _NULL_SANS:
            return Move.null()
        return self._compat(self._pos.parse_san(san))

    def push_san(self, san: str) -> Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """The SAN of a legal move (``--`` for the null move); ``#`` also ends a move that wins
        by the variant's own rule."""
        if not move:
            return "--"
        return self._pos.san(self._core(move))

    def san_and_push(self, move: Move) -> str:
        san = self.san(move)
        self.push(move)
        return san

    def uci(self, move: Move, *, chess960: Optional[bool] = None) -> str:
        return move.uci()

    def xboard(self, move: Move, chess960: Optional[bool] = None) -> str:
        return move.xboard()

    def parse_xboard(self, xboard: str) -> Move:
        """A move in XBoard's notation: SAN, or squares (``e2e4``) as lenient SAN reads them."""
        return self.parse_san(xboard)

    def push_xboard(self, xboard: str) -> Move:
        return self.push_san(xboard)

    def variation_san(self, variation: Iterable[Move]) -> str:
        """A line of moves from this position in SAN with move numbers."""
        board = self.copy(stack=False)
        out: List[str] = []
        for move in variation:
            number, white = board.fullmove_number, board.turn == WHITE
            san = board.san_and_push(move)
            out.append(f"{number}. {san}" if white else (san if out else f"{number}...{san}"))
        return " ".join(out)

    # -- endings

    def is_check(self) -> bool:
        return self._pos.is_check()

    def is_checkmate(self) -> bool:
        return self._pos.is_checkmate()

    def is_stalemate(self) -> bool:
        return self._pos.is_stalemate()

    def is_variant_end(self) -> bool:
        return self._pos.is_variant_end()

    def _variant_outcome(self) -> Optional[Outcome]:
        outcome = self.outcome()
        return outcome if outcome is not None and outcome.termination.name.startswith("VARIANT_") else None

    def is_variant_win(self) -> bool:
        """Whether the side to move won by the variant's own rule."""
        outcome = self._variant_outcome()
        return outcome is not None and outcome.winner == self.turn

    def is_variant_loss(self) -> bool:
        outcome = self._variant_outcome()
        return outcome is not None and outcome.winner == (not self.turn)

    def is_variant_draw(self) -> bool:
        outcome = self._variant_outcome()
        return outcome is not None and outcome.winner is None

    def status(self) -> Status:
        """What python-chess would find wrong with the board (``STATUS_*`` flags): the board
        is always a position the library can play, but python-chess is stricter in places."""
        flags = self._pos.status()
        return Status(flags) if flags else Status.VALID

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def has_insufficient_material(self, color: Color) -> bool:
        return self._pos.has_insufficient_material(color)

    def is_insufficient_material(self) -> bool:
        return self._pos.is_insufficient_material()

    def _game(self) -> Game:
        """The library's game of the move stack from its root, which decides repetitions and
        claims; the current position alone when the stack does not replay to it (a null move,
        a board edited after moves were pushed)."""
        if self._history is not None:
            return self._history
        game = Game((self._before[0] if self._before else self._pos).copy())
        try:
            for move in self.move_stack:
                game.push_uci(move.uci())
        except IllegalMoveError:
            return Game(self._pos.copy())
        if game.board() != self._pos:
            return Game(self._pos.copy())
        self._history = game
        return game

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position has occurred ``count`` times, this time included (positions
        count pockets and remaining checks; see docs/variants.md)."""
        return self._game().repetition_count() >= count

    def is_fivefold_repetition(self) -> bool:
        return self.is_repetition(5)

    def can_claim_threefold_repetition(self) -> bool:
        return self._game().can_claim_threefold_repetition()

    def can_claim_draw(self) -> bool:
        return self.can_claim_fifty_moves() or self.can_claim_threefold_repetition()

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the game ended, in python-chess's order: the variant's own rule, checkmate,
        insufficient material, stalemate, the seventy-five-move rule, fivefold repetition, and
        with ``claim_draw`` the fifty-move rule and threefold repetition; else None."""
        outcome = self._game().outcome(claim_draw=claim_draw)
        return None if outcome is None else Outcome(Termination(int(outcome.termination)), outcome.winner)

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        outcome = self.outcome(claim_draw=claim_draw)
        return "*" if outcome is None else outcome.result()

    # -- copies and comparison

    def copy(self: VariantBoardT, *, stack: Union[bool, int] = True) -> VariantBoardT:
        """A copy; ``stack=False`` without the moves that led here, an int with the last so
        many."""
        board = type(self)._of(self._pos.copy())
        kept = len(self.move_stack) if stack is True else int(stack)
        if kept:
            board._before = [pos.copy() for pos in self._before[-kept:]]
            board.move_stack = self.move_stack[-kept:]
        return board

    def root(self: VariantBoardT) -> VariantBoardT:
        """The position before the first move of the stack."""
        return type(self)._of((self._before[0] if self._before else self._pos).copy())

    def __copy__(self: VariantBoardT) -> VariantBoardT:
        return self.copy()

    def __deepcopy__(self: VariantBoardT, memo: object) -> VariantBoardT:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VariantBoard):
            return NotImplemented
        return type(self).uci_variant == type(other).uci_variant and self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]


class AntichessBoard(VariantBoard):
    """Antichess as lichess plays it: captures compulsory, no castling, the king an ordinary
    piece (pawns promote to it); a side without pieces or stalemated wins."""

    _variant = Variant.ANTICHESS
    aliases = ["Antichess", "Anti chess", "Anti"]
    uci_variant = "antichess"
    xboard_variant = "giveaway"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    tbw_suffix, tbz_suffix = ".gtbw", ".gtbz"
    tbw_magic, tbz_magic = b"\xbc\x55\xbc\x21", b"\xd6\xf5\x1b\x50"
    pawnless_tbw_suffix, pawnless_tbz_suffix = ".stbw", ".stbz"
    pawnless_tbw_magic, pawnless_tbz_magic = b"\x7b\xf6\x93\x15", b"\xe4\xcf\xe7\x23"
    connected_kings = True
    one_king = False
    captures_compulsory = True
    __slots__ = ()


class AtomicBoard(VariantBoard):
    _variant = Variant.ATOMIC
    aliases = ["Atomic", "Atom", "Atomic chess"]
    uci_variant = "atomic"
    xboard_variant = "atomic"
    starting_fen = Board.starting_fen
    tbw_suffix, tbz_suffix = ".atbw", ".atbz"
    tbw_magic, tbz_magic = b"\x55\x8d\xa4\x49", b"\x91\xa9\x5e\xeb"
    connected_kings = True
    __slots__ = ()


class KingOfTheHillBoard(VariantBoard):
    _variant = Variant.KING_OF_THE_HILL
    aliases = ["King of the Hill", "KOTH", "kingOfTheHill"]
    uci_variant = "kingofthehill"
    xboard_variant = "kingofthehill"
    starting_fen = Board.starting_fen
    __slots__ = ()


class RacingKingsBoard(VariantBoard):
    _variant = Variant.RACING_KINGS
    aliases = ["Racing Kings", "Racing", "Race", "racingkings"]
    uci_variant = "racingkings"
    xboard_variant = "racingkings"
    starting_fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
    __slots__ = ()


class HordeBoard(VariantBoard):
    _variant = Variant.HORDE
    aliases = ["Horde", "Horde chess"]
    uci_variant = "horde"
    xboard_variant = "horde"
    starting_fen = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"
    __slots__ = ()


class ThreeCheckBoard(VariantBoard):
    _variant = Variant.THREE_CHECK
    aliases = ["Three-check", "Three check", "Threecheck", "Three check chess", "3-check", "3 check", "3check"]
    uci_variant = "3check"
    xboard_variant = "3check"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    __slots__ = ()

    @property
    def remaining_checks(self) -> List[int]:
        """The checks each side still has to give, by colour (``remaining_checks[WHITE]``);
        setting one (``remaining_checks[WHITE] = 1``) changes the board."""
        return _RemainingChecks(self)


class CrazyhouseBoard(VariantBoard):
    _variant = Variant.CRAZYHOUSE
    aliases = ["Crazyhouse", "Crazy House", "House", "ZH"]
    uci_variant = "crazyhouse"
    xboard_variant = "crazyhouse"
    starting_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
    __slots__ = ()

    @property
    def pockets(self) -> List[CrazyhousePocket]:
        """Both pockets by colour (``pockets[WHITE]``), which show and change the board's."""
        return [_BoardPocket(self, False), _BoardPocket(self, True)]

    def _set_pocket(self, color: Color, counts: Dict[PieceType, int]) -> None:
        pockets = {color: CrazyhousePocket(), not color: self.pockets[not color].copy()}
        pockets[color]._counts = counts
        self._set_fields(pockets=str(pockets[True]).upper() + str(pockets[False]))

    def board_fen(self, *, promoted: Optional[bool] = True) -> str:
        return super().board_fen(promoted=promoted is not False)

    def legal_drop_squares_mask(self) -> Bitboard:
        return int(self.legal_drop_squares())

    def legal_drop_squares(self) -> SquareSet:
        """The squares the side to move could drop a piece on, whatever its pocket holds:
        where the library lets a knight added to the pocket drop."""
        placement, rest = self._pos.fen().split(" ", 1)
        knight = "N" if self.turn else "n"
        with_knight = self._read(placement.replace("]", knight + "]", 1) + " " + rest)
        return SquareSet(sum(1 << core.to_square for core in with_knight.legal_moves() if with_knight.uci(core).startswith("N@")))

    def generate_legal_drops(self, to_mask: Bitboard = BB_ALL) -> Iterator[Move]:
        return (m for m in list(self._legal()) if m.drop and to_mask >> m.to_square & 1)


def _of_pieces(name: str) -> Any:
    def query(self: VariantBoard, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._pieces(), name)(*args, **kwargs)

    query.__name__ = query.__qualname__ = name
    query.__doc__ = f"BaseBoard's ``{name}`` of the board's pieces (what they attack, as in chess)."
    return query


# What chess.Board reads off the pieces, the castling rights and the FEN, as python-chess's
# variant boards inherit it.
for _name in ("is_zeroing", "has_castling_rights", "has_chess960_castling_rights", "clean_castling_rights", "castling_xfen"):
    setattr(VariantBoard, _name, getattr(Board, _name))

# python-chess's piece-placement queries, the same in every variant (pins are the library's
# variant query: antichess has none).
for _name in ("attackers_mask", "attackers", "is_attacked_by", "attacks_mask", "attacks"):
    setattr(VariantBoard, _name, _of_pieces(_name))
def _of_kind(kind: PieceType, name: str) -> property:
    def mask(self: VariantBoard) -> Bitboard:
        return self.pieces_mask(kind, True) | self.pieces_mask(kind, False)

    return property(mask, doc=f"The squares of both sides' {name}.")


for _kind, _name in enumerate(("pawns", "knights", "bishops", "rooks", "queens", "kings"), 1):
    setattr(VariantBoard, _name, _of_kind(_kind, _name))

# python-chess's list of the board classes find_variant looks through.
VARIANTS: List[type] = [Board, AntichessBoard, AtomicBoard, KingOfTheHillBoard, RacingKingsBoard, HordeBoard, ThreeCheckBoard, CrazyhouseBoard]


def find_variant(name: str) -> type:
    """The board class one of whose ``aliases`` is ``name`` (ignoring case); ValueError for
    another."""
    lowered = name.lower()
    for cls in VARIANTS:
        if any(alias.lower() == lowered for alias in cls.aliases):  # type: ignore[attr-defined]
            return cls
    raise ValueError(f"unsupported variant: {name}")
