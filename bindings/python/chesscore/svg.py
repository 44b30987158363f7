"""Board pictures in SVG, with the keyword arguments of python-chess's ``chess.svg.board``.

    >>> import chesscore, chesscore.svg
    >>> pos = chesscore.Position()
    >>> picture = chesscore.svg.board(pos, arrows=[("e2", "e4")], size=300)
    >>> picture.startswith("<svg ") and 'width="300"' in picture
    True

The picture is a standalone SVG 1.1 document drawn by the library (the same bytes for the same
input); each piece is one ``<use>`` element with ``chess:square`` and ``chess:piece``
attributes (namespace ``urn:chesscore:svg``). Notebooks show the ``Svg`` strings ``board``
returns, and positions themselves (``Position._repr_svg_``), as pictures.

A ``chesscore.variant.VariantPosition`` is drawn with what its variant adds: crazyhouse's
pockets in a strip above and one below the board and a tilde on promoted pieces, three-check's
check counters in the same strips (the picture is then taller than ``size``).
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Iterable, Mapping, NamedTuple, Optional, Union

from . import _args, _native
from ._native import lib
from .errors import ErrorCode, raise_for
from .position import Position
from .types import Move, square

if TYPE_CHECKING:
    from .variant import VariantPosition

SquareLike = Union[int, str]

# The keys of ``colors``: python-chess's names, then the marks it has none for.
_COLOR_FIELDS = {
    "square light": "color_light",
    "square dark": "color_dark",
    "square light lastmove": "color_last_move_light",
    "square dark lastmove": "color_last_move_dark",
    "margin": "color_margin",
    "coord": "color_coordinates",
    "check": "color_check",
    "highlight": "color_highlight",
    "arrow": "color_arrow",
}


class Arrow(NamedTuple):
    """A straight arrow from the centre of ``tail`` to the centre of ``head`` (a ring around the
    square when they are the same) in ``color``: a name (green, red, blue, yellow) or
    ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``; None for ``colors["arrow"]``."""

    tail: SquareLike
    head: SquareLike
    color: Optional[str] = "green"


class Svg(str):
    """An SVG document: a str that notebooks show as a picture."""

    def _repr_svg_(self):
        return str(self)


def parse_color(text: str) -> int:
    """A colour as the library reads it, as a ``0xRRGGBBAA`` int: ``#rgb``, ``#rgba``,
    ``#rrggbb``, ``#rrggbbaa`` or one of the names green, red, blue, yellow. Anything else
    raises ``InvalidArgumentError``."""
    out = ctypes.c_uint32()
    code = lib.chess_svg_parse_color(_args.text(text, "colour"), ctypes.byref(out))
    if code == ErrorCode.INVALID_ARGUMENT:
        expected = "#rgb, #rgba, #rrggbb, #rrggbbaa or green, red, blue, yellow"
        raise_for(code, f"invalid colour: {text!r} (expected {expected})")
    _native.check(code)
    return out.value


def _square_set(squares: Union[int, Iterable[SquareLike], None], what: str) -> int:
    """A bit set from an int (a bitboard, such as python-chess's SquareSet gives) or squares."""
    if squares is None:
        return 0
    if isinstance(squares, int) and not isinstance(squares, bool):
        return _args.integer(squares, what, 0, (1 << 64) - 1)
    bits = 0
    for sq in _args.of_type(squares, Iterable, what):  # type: ignore[arg-type]
        bits |= 1 << square(sq)
    return bits


def board(
    board: Union[Position, VariantPosition],
    *,
    orientation: bool = True,
    lastmove: Optional[Move] = None,
    check: Optional[SquareLike] = None,
    arrows: Iterable[Union[Arrow, tuple]] = (),
    fill: Mapping[SquareLike, str] = {},
    squares: Union[int, Iterable[SquareLike], None] = None,
    size: Optional[int] = None,
    coordinates: bool = True,
    colors: Mapping[str, str] = {},
) -> Svg:
    """The position (a Position, a VariantPosition, or a ``chesscore.compat`` board: ``chess.svg``
    is this module) as an SVG picture, ``size`` pixels wide and high (None: 400; a variant's
    strips add to the height), White at the bottom unless ``orientation`` is ``BLACK``. ``lastmove``'s squares are tinted, ``check`` (a
    square) glows red, ``arrows`` are ``Arrow``s or ``(tail, head)`` pairs, ``fill`` tints
    squares (``{square: colour}``), ``squares`` are framed (an int bit set or squares),
    ``coordinates`` draws the file letters and rank numbers on a margin. ``colors`` sets
    ``"square light"``, ``"square dark"``, ``"square light lastmove"``, ``"square dark
    lastmove"``, ``"margin"``, ``"coord"``, ``"check"``, ``"highlight"`` and ``"arrow"``."""
    from .variant import VariantPosition  # variant imports game, which imports this module

    if not isinstance(board, (Position, VariantPosition)) and callable(getattr(board, "_position", None)):
        board = board._position()  # a chesscore.compat board: its current position
    position = _args.of_type(board, (Position, VariantPosition), "board")
    options = _native.SvgOptions(size=ctypes.sizeof(_native.SvgOptions))
    flipped = not _args.of_type(orientation, bool, "orientation")
    bare = not _args.of_type(coordinates, bool, "coordinates")
    options.flags = (_native.SVG_FLIPPED if flipped else 0) | (_native.SVG_NO_COORDINATES if bare else 0)
    if size is not None:
        options.pixels = _args.integer(size, "size", 1, 1_000_000)
    if lastmove is not None:
        options.last_move = _args.of_type(lastmove, Move, "lastmove").raw
    if check is not None:
        options.check = 1 << square(check)
    options.squares = _square_set(squares, "squares")
    arrow_items = []
    for arrow in _args.of_type(arrows, Iterable, "arrows"):  # type: ignore[arg-type]
        fields = _args.of_type(arrow, tuple, "an arrow")
        if not 2 <= len(fields) <= 3:
            raise_for(ErrorCode.INVALID_ARGUMENT, f"an arrow is (tail, head) or (tail, head, color), not {fields!r}")
        tail, head, color = Arrow(*fields)
        arrow_items.append(_native.SvgArrow(square(tail), square(head), 0 if color is None else parse_color(color)))
    fill_items = [
        _native.SvgFill(square(sq), parse_color(color))
        for sq, color in _args.of_type(fill, Mapping, "fill").items()  # type: ignore[arg-type]
    ]
    # The arrays stay referenced until the call returns.
    arrow_array = (_native.SvgArrow * len(arrow_items))(*arrow_items)
    fill_array = (_native.SvgFill * len(fill_items))(*fill_items)
    options.arrows, options.arrow_count = arrow_array, len(arrow_items)
    options.fills, options.fill_count = fill_array, len(fill_items)
    for key, color in _args.of_type(colors, Mapping, "colors").items():  # type: ignore[arg-type]
        field = _args.option(key, _COLOR_FIELDS, "a colors key")
        setattr(options, field, parse_color(color))
    if isinstance(position, VariantPosition):
        return Svg(_native.read_text(lib.chess_variant_position_to_svg, position._ptr, ctypes.byref(options), size=32768))
    return Svg(_native.read_text(lib.chess_position_to_svg, position._pos, ctypes.byref(options), size=16384))
