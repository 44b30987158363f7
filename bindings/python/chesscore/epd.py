"""EPD records, read once into Python values: of chess positions, or of the lichess variants'
(``Epd(line, variant=Variant.CRAZYHOUSE)``)."""

from __future__ import annotations

import ctypes
from typing import Optional

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, raise_for
from .position import Position
from .types import Move
from .variant import Variant, VariantPosition

# chess_operand_kind
_MOVE, _INTEGER, _FLOAT, _STRING, _WORD = 1, 2, 3, 4, 5


class Epd:
    """An EPD line: ``position()`` and the operations, a read-only mapping from opcode to the
    list of its operands (Move for ``bm``, ``am`` and ``pv``, int, float, or str for strings
    and words). ``str(epd)`` is the canonical line.

    With ``variant`` (a ``chesscore.variant.Variant``) the line is a position of that variant,
    as python-chess's variant boards write it: crazyhouse pockets in the placement
    (``...RNBQKB1R[Qp] w KQkq -``), three-check's remaining checks after the en passant square
    (``... - 2+1``; left out, 3 each); moves are the variant's SAN (drops ``N@f3``, ``@e4``) and
    ``position()`` is a ``VariantPosition``."""

    __slots__ = ("_position", "_operations", "_line")

    def __init__(self, line: str, *, chess960: bool = False, variant: Optional[Variant] = None):
        flags = _args.flag(chess960, "chess960", _native.FEN_CHESS960)
        text = _args.text(line, "EPD line")
        handle = _native.EPD()
        if variant is None:
            _native.check(lib.chess_epd_parse_with(text, flags, ctypes.byref(handle)))
        elif flags:
            raise_for(ErrorCode.INVALID_ARGUMENT, "chess960 goes with chess: use variant=Variant.CHESS960")
        else:
            value = _args.integer(_args.of_type(variant, int, "variant"), "variant", 0, 255)
            _native.check(lib.chess_epd_parse_variant(value, text, ctypes.byref(handle)))
        try:
            self._read(handle, variant is not None)
        finally:
            lib.chess_epd_free(handle)

    def _read(self, handle, variant):
        if variant:
            self._position = VariantPosition._clone_of(lib.chess_epd_variant_position(handle))
            chess960 = self._position.variant == Variant.CHESS960
        else:
            self._position = Position._copy_of(lib.chess_epd_position(handle))
            chess960 = self._position.chess960
        self._line = _native.read_text(lib.chess_epd_write, handle, size=256)
        self._operations = {}
        for index in range(lib.chess_epd_operation_count(handle)):
            opcode = _native.read_text(lib.chess_epd_opcode, handle, index, size=32)
            key = opcode.encode("utf-8")
            operands = []
            for i in range(lib.chess_epd_operand_count(handle, key)):
                kind = lib.chess_epd_operand_kind(handle, key, i)
                if kind == _MOVE:
                    out = ctypes.c_uint16()
                    _native.check(lib.chess_epd_operand_move(handle, key, i, ctypes.byref(out)))
                    operands.append(Move(out.value, chess960))
                elif kind == _INTEGER:
                    out = ctypes.c_int64()
                    _native.check(lib.chess_epd_operand_integer(handle, key, i, ctypes.byref(out)))
                    operands.append(out.value)
                elif kind == _FLOAT:
                    out = ctypes.c_double()
                    _native.check(lib.chess_epd_operand_float(handle, key, i, ctypes.byref(out)))
                    operands.append(out.value)
                else:
                    operands.append(_native.read_text(lib.chess_epd_operand_string, handle, key, i, size=64))
            self._operations[opcode] = operands

    def position(self):
        """A copy of the position (a VariantPosition for a variant's line), with the clocks of
        ``hmvc`` and ``fmvn``."""
        return self._position.copy()

    def __getitem__(self, opcode):
        try:
            return list(self._operations[opcode])
        except KeyError:
            raise_for(ErrorCode.EPD_NOT_FOUND, f"no operation {opcode!r}")

    def get(self, opcode, default=None):
        return list(self._operations[opcode]) if opcode in self._operations else default

    def __contains__(self, opcode):
        return opcode in self._operations

    def __iter__(self):
        return iter(self._operations)

    def __len__(self):
        return len(self._operations)

    def operations(self):
        """{opcode: [operands]}, in the order of the line (a new dict)."""
        return {opcode: list(operands) for opcode, operands in self._operations.items()}

    def __str__(self):
        return self._line

    def __repr__(self):
        return f"Epd({self._line!r})"
