# The methods are Board's (their self is one): mypy's [misc] check of such a mixin is off.
# mypy: disable-error-code="misc"
"""python-chess's notations and descriptions that ``Board`` adds to the library's moves and
positions: the variant's name and tablebase suffixes, castling rights as FEN text (and its
letters read as python-chess reads them), Chess960 numbering, UCI and XBoard notation of
castling, irreversible moves."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional

from ..setup import Setup
from ._baseboard import BaseBoard
from ._moves import Move
from ._squares import BB_RANK_1, BB_RANK_8, BLACK, E1, E8, FILE_NAMES, KING, ROOK, STARTING_FEN, WHITE, Bitboard

if TYPE_CHECKING:
    from ._board import Board

# A FEN's castling field as python-chess takes it: "-", or up to two rights of White's (K, Q
# or a rook's file) then up to two of Black's.
CASTLING_FIELD = re.compile(r"(?:-|[KQA-H]{0,2}[kqa-h]{0,2})\Z")


def castling_rooks(setup: Setup, field: str) -> Bitboard:
    """The rook squares a FEN's castling field names on ``setup``'s pieces, as python-chess
    reads it: a file, or for K (Q) the outermost rook of the side beyond its king, else the
    corner (Q: nothing when the side has a king and no rook on its back rank)."""
    rights = 0
    for letter in field.strip("-"):
        color = letter.isupper()
        back = 0 if color else 56
        if letter.lower() not in "kq":
            rights |= 1 << (back + FILE_NAMES.index(letter.lower()))
            continue
        rooks = setup.pieces_mask(ROOK, color) & (BB_RANK_1 if color else BB_RANK_8)
        king = setup.king(color)
        if letter.lower() == "q":
            lowest = (rooks & -rooks).bit_length() - 1  # -1 for none
            rights |= rooks & -rooks if king is not None and lowest < king else 1 << back
        else:
            highest = rooks.bit_length() - 1
            rights |= 1 << highest if king is not None and king < highest else 1 << (back + 7)
    return rights


class Notation:
    """What python-chess's Board has beyond the library's rules (a base of Board)."""

    __slots__ = ()

    # python-chess's description of the variant a board class plays: standard chess.
    aliases = ["Standard", "Chess", "Classical", "Normal", "Illegal", "From Position"]
    uci_variant: Optional[str] = "chess"
    xboard_variant: Optional[str] = "normal"
    starting_fen = STARTING_FEN
    tbw_suffix: Optional[str] = ".rtbw"
    tbz_suffix: Optional[str] = ".rtbz"
    tbw_magic: Optional[bytes] = b"\x71\xe8\x23\x5d"
    tbz_magic: Optional[bytes] = b"\xd7\x66\x0c\xa5"
    pawnless_tbw_suffix: Optional[str] = None
    pawnless_tbz_suffix: Optional[str] = None
    pawnless_tbw_magic: Optional[bytes] = None
    pawnless_tbz_magic: Optional[bytes] = None
    connected_kings = False
    one_king = True
    captures_compulsory = False

    def shredder_fen(self: Board, *, en_passant: str = "legal", promoted: Optional[bool] = None) -> str:
        return self.fen(shredder=True, en_passant=en_passant)

    def chess960_pos(self: Board, *, ignore_turn: bool = False, ignore_castling: bool = False, ignore_counters: bool = True) -> Optional[int]:
        """The number of the Chess960 start position this is (0 to 959), else None; by default
        White must be to move and every rook keep its castling right, the clocks may be any."""
        if self.ep_square is not None:
            return None
        if not ignore_turn and not self.turn:
            return None
        rooks = self.pieces_mask(ROOK, WHITE) | self.pieces_mask(ROOK, BLACK)
        if not ignore_castling and self.clean_castling_rights() != rooks:
            return None
        if not ignore_counters and (self.fullmove_number != 1 or self.halfmove_clock != 0):
            return None
        return BaseBoard.chess960_pos(self)

    # -- castling rights as text

    def clean_castling_rights(self: Board) -> Bitboard:
        """The rook squares of the castling rights that can stand (all of a valid board's)."""
        return self.castling_rights

    def castling_shredder_fen(self: Board) -> str:
        return self.fen(shredder=True).split(" ")[2]

    def castling_xfen(self: Board) -> str:
        return self.fen().split(" ")[2]

    def set_castling_fen(self: Board, castling_fen: str) -> None:
        """Sets the castling rights from a FEN's castling field (``KQkq``, Shredder-FEN's rook
        files, X-FEN, ``-``); ValueError for a bad one. Clears the move stack."""
        if not castling_fen:
            castling_fen = "-"
        if not CASTLING_FIELD.match(castling_fen):
            raise ValueError(f"invalid castling fen: {castling_fen!r}")
        self._edit(castling=castling_rooks(self._as_setup(), castling_fen), keep_stack=False)

    def is_irreversible(self: Board, move: Move) -> bool:
        """A zeroing move, one that gives up a castling right (it moves a king that has one,
        or leaves or lands on a rook square that has one), or any move while an en passant
        capture is legal."""
        if self.is_zeroing(move) or self.has_legal_en_passant():
            return True
        rights = self.clean_castling_rights()
        touched = (1 << move.from_square) ^ (1 << move.to_square)
        if touched & rights:
            return True
        for color, backrank in ((WHITE, BB_RANK_1), (BLACK, BB_RANK_8)):
            if rights & backrank and touched & self.pieces_mask(KING, color):
                return True
        return False

    def was_into_check(self: Board) -> bool:
        """Whether the side that just moved left its king attacked."""
        king = self.king(not self.turn)
        return king is not None and self.is_attacked_by(self.turn, king)

    def _notation_move(self: Board, move: Move, chess960: bool) -> Move:
        """``move`` with castling written as the king taking its rook (``chess960``) or as its
        two-square move: python-chess's reading of a move of a king on e1 or e8."""
        start = move.from_square
        if move.promotion or move.drop or start not in (E1, E8):
            return move
        if not (self.pieces_mask(KING, WHITE) | self.pieces_mask(KING, BLACK)) >> start & 1:
            return move
        rooks = self.pieces_mask(ROOK, WHITE) | self.pieces_mask(ROOK, BLACK)
        back = start - 4  # a1 or a8
        to = move.to_square
        if to in (back + 2, back + 6) and not rooks >> to & 1:
            to = back if to == back + 2 else back + 7
        if not chess960 and to in (back, back + 7):
            to = back + 2 if to == back else back + 6
        return move if to == move.to_square else Move(start, to)

    def uci(self: Board, move: Move, *, chess960: Optional[bool] = None) -> str:
        """The UCI of ``move``, castling written as the board's mode (or ``chess960``) writes it."""
        return self._notation_move(move, self._chess960 if chess960 is None else chess960).uci()

    def xboard(self: Board, move: Move, chess960: Optional[bool] = None) -> str:
        """The XBoard notation: the UCI, castling as ``O-O``/``O-O-O`` in Chess960."""
        if not (self._chess960 if chess960 is None else chess960) or not self.is_castling(move):
            return move.xboard()
        return "O-O" if self.is_kingside_castling(move) else "O-O-O"

    def parse_xboard(self: Board, xboard: str) -> Move:
        return self.parse_san(xboard)

    def push_xboard(self: Board, xboard: str) -> Move:
        return self.push_san(xboard)

    def san_and_push(self: Board, move: Move) -> str:
        """The SAN of a legal move, then the move played."""
        san = self.san(move)
        self.push(move)
        return san

    # Standard chess has no variant ending.
    def is_variant_end(self: Board) -> bool:
        return False

    def is_variant_win(self: Board) -> bool:
        return False

    def is_variant_loss(self: Board) -> bool:
        return False

    def is_variant_draw(self: Board) -> bool:
        return False
