"""python-chess's big bitboard tables, built from the library's attacks the first time a
program reads one (``chesscore.compat``'s module ``__getattr__``): ``BB_DIAG_ATTACKS``,
``BB_FILE_ATTACKS`` and ``BB_RANK_ATTACKS`` (by square, a dict from each occupancy of the
square's mask to the attacks along those lines) and ``BB_RAYS`` (by pair of squares, the line
through both). Importing costs nothing for programs that never read them (some 10 ms)."""

from __future__ import annotations

from typing import Callable, Dict, List

from .._native import by_address as _c
from ._squares import (
    BB_ALL,
    BB_DIAG_MASKS,
    BB_FILE_MASKS,
    BB_FILES,
    BB_RANK_MASKS,
    BB_RANKS,
    SQUARES,
    Bitboard,
    Square,
    SquareSet,
    ray,
    square_file,
    square_rank,
)

_BISHOP, _ROOK = 3, 4  # chess_piece codes (white pieces)


def _attack_table(piece: int, masks: List[Bitboard], lines: Callable[[Square], Bitboard]) -> List[Dict[Bitboard, Bitboard]]:
    """By square, the attacks of ``piece`` along ``lines(square)`` for each occupancy of the
    square's mask."""
    attacks = _c.chess_bitboard_attacks
    return [{occ: attacks(piece, sq, occ) & lines(sq) for occ in SquareSet(masks[sq]).carry_rippler()} for sq in SQUARES]


def _rays() -> List[List[Bitboard]]:
    return [[ray(a, b) for b in SQUARES] for a in SQUARES]


# By name, the function that builds the table.
BUILDERS: Dict[str, Callable[[], object]] = {
    "BB_DIAG_ATTACKS": lambda: _attack_table(_BISHOP, BB_DIAG_MASKS, lambda sq: BB_ALL),
    "BB_FILE_ATTACKS": lambda: _attack_table(_ROOK, BB_FILE_MASKS, lambda sq: BB_FILES[square_file(sq)]),
    "BB_RANK_ATTACKS": lambda: _attack_table(_ROOK, BB_RANK_MASKS, lambda sq: BB_RANKS[square_rank(sq)]),
    "BB_RAYS": _rays,
}
