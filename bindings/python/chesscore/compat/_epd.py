"""EPD lines for python-chess's ``Board.set_epd``, ``from_epd`` and ``epd``: the library reads
the line (position and operations), this turns its operands into python-chess's values."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Dict, Iterator, List, Mapping, Tuple

from .. import _native
from ._moves import MOVES, Move

if TYPE_CHECKING:
    from ._board import Board
    from .variant import VariantBoard

# chess_operand_kind
_EPD_MOVE, _EPD_INTEGER, _EPD_FLOAT, _EPD_WORD = 1, 2, 3, 5


def read_epd(board: Board, epd: str) -> Dict[str, object]:
    """Reads an EPD line into ``board`` and gives its operations (see ``Board.set_epd``)."""
    from . import _board  # (which imports this module)

    parts = epd.strip().rstrip(";").split(None, 4)
    if len(parts) <= 4:
        board.set_fen(epd)
        return {}
    handle = _native.EPD()
    flags = _native.FEN_CHESS960 if board._chess960 else 0
    _native.check(_native.lib.chess_epd_parse_with(epd.encode("utf-8", "replace"), flags, ctypes.byref(handle)))
    try:
        start = _native.Position.from_buffer_copy(_native.lib.chess_epd_position(handle).contents)
        at = _board.Board._of_position(start, board._chess960)
        operations = {opcode: _operand(at, opcode, operands) for opcode, operands in _operands(handle, board._chess960)}
    finally:
        _native.lib.chess_epd_free(handle)
    board._replace_start(_board.copy_position(at._pos), board._chess960)
    return operations


def read_variant_epd(board: VariantBoard, epd: str) -> Dict[str, object]:
    """Reads an EPD line of the board's variant into ``board`` and gives its operations (see
    ``VariantBoard.set_epd``)."""
    from ..variant import VariantPosition

    handle = _native.EPD()
    line = epd.encode("utf-8", "replace")
    _native.check(_native.lib.chess_epd_parse_variant(board._variant, line, ctypes.byref(handle)))
    try:
        start = VariantPosition._clone_of(_native.lib.chess_epd_variant_position(handle))
        at = type(board)._of(start.copy())
        operations = {opcode: _operand(at, opcode, operands) for opcode, operands in _operands(handle, False)}  # type: ignore[arg-type]
    finally:
        _native.lib.chess_epd_free(handle)
    board._set_position(start)
    return operations


def write_epd(board: Board, fen: str, operations: Mapping[str, object]) -> str:
    """The first four fields of ``fen``, then the operations (see ``Board.epd``)."""
    fields = fen.split(" ")[:4]
    ops = []
    for opcode, operand in operations.items():
        if operand is None:
            ops.append(f"{opcode};")
        elif isinstance(operand, Move):
            ops.append(f"{opcode} {board.san(operand)};")
        elif isinstance(operand, (int, float)):
            ops.append(f"{opcode} {operand};")
        elif isinstance(operand, str):
            escaped = operand.replace("\\", "\\\\").replace('"', '\\"')
            ops.append(f'{opcode} "{escaped}";')
        elif opcode == "pv":
            # A principal variation is a line: each move read after the one before.
            line = board.copy(stack=False)
            ops.append(f"{opcode} {' '.join(line.san_and_push(move) for move in operand)};")  # type: ignore[attr-defined]
        else:
            # A set of moves (bm, am): in alphabetical order, as python-chess writes it.
            ops.append(f"{opcode} {' '.join(sorted(board.san(move) for move in operand))};")  # type: ignore[attr-defined]
    return " ".join(fields + ops)


def _operand(board: Board, opcode: str, operands: List[Tuple[int, object]]) -> object:
    """python-chess's value of an EPD operation from the library's operands (kind, value):
    moves read in this position, numbers, strings."""
    if opcode in ("bm", "am", "pv"):
        return [value for _, value in operands]
    if not operands:
        return None
    kind, value = operands[0]
    if len(operands) == 1 and kind != _EPD_WORD:
        return value
    if kind in (_EPD_INTEGER, _EPD_FLOAT):
        raise ValueError(f"invalid numeric operand for epd operation {opcode!r}")
    return board.parse_san(" ".join(str(value) for _, value in operands))


def _operands(handle: object, chess960: bool) -> Iterator[Tuple[str, List[Tuple[int, object]]]]:
    """Each operation of an EPD record: its opcode and its operands as (chess_operand_kind,
    value), a move as a compat Move."""
    lib = _native.lib
    for index in range(lib.chess_epd_operation_count(handle)):
        opcode = _native.read_text(lib.chess_epd_opcode, handle, index)
        key = opcode.encode("utf-8")
        operands: List[Tuple[int, object]] = []
        for i in range(lib.chess_epd_operand_count(handle, key)):
            kind = lib.chess_epd_operand_kind(handle, key, i)
            if kind == _EPD_MOVE:
                raw = ctypes.c_uint16()
                _native.check(lib.chess_epd_operand_move(handle, key, i, ctypes.byref(raw)))
                value: object = MOVES[chess960][raw.value]
            elif kind == _EPD_INTEGER:
                integer = ctypes.c_int64()
                _native.check(lib.chess_epd_operand_integer(handle, key, i, ctypes.byref(integer)))
                value = integer.value
            elif kind == _EPD_FLOAT:
                number = ctypes.c_double()
                _native.check(lib.chess_epd_operand_float(handle, key, i, ctypes.byref(number)))
                value = number.value
            else:
                value = _native.read_text(lib.chess_epd_operand_string, handle, key, i)
            operands.append((kind, value))
        yield opcode, operands
