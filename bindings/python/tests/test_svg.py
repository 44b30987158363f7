"""chesscore.svg.board and Position._repr_svg_: the document read back with xml.etree, each
keyword argument reaching the picture, and bad arguments; variant positions with their pockets
and check counters, and chesscore.compat boards."""

import doctest
import xml.etree.ElementTree as ET

import pytest

import chesscore
import chesscore.compat
import chesscore.compat.variant
import chesscore.svg
from chesscore.variant import Variant, VariantPosition

SVG = "{http://www.w3.org/2000/svg}"
CHESS = "{urn:chesscore:svg}"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
MATED = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"


def pieces(svg):
    """{square name: FEN letter} of the piece elements."""
    root = ET.fromstring(svg)
    return {e.get(CHESS + "square"): e.get(CHESS + "piece") for e in root.iter() if e.get(CHESS + "square")}


@pytest.mark.parametrize("fen", [chesscore.STARTING_FEN, KIWIPETE, MATED])
def test_one_element_per_piece_with_its_square_and_letter(fen):
    pos = chesscore.Position.from_fen(fen)
    svg = chesscore.svg.board(pos)
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg" and root.get("version") == "1.1" and root.get("width") == "400"
    assert root.find(SVG + "desc").text == pos.fen()
    expected = {chesscore.square_name(sq): piece.symbol() for sq, piece in pos.piece_map().items()}
    assert pieces(svg) == expected
    assert all(e.tag == SVG + "use" for e in root.iter() if e.get(CHESS + "square"))
    assert svg == chesscore.svg.board(pos) and isinstance(svg, str) and svg._repr_svg_() == svg


def test_repr_svg_marks_a_king_in_check():
    mated = chesscore.Position.from_fen(MATED)
    assert mated._repr_svg_() == chesscore.svg.board(mated, check="e1")
    assert mated._repr_svg_().count("<circle") == 4
    start = chesscore.Position()
    assert start._repr_svg_() == chesscore.svg.board(start) and "<circle" not in start._repr_svg_()


def test_every_keyword_changes_the_picture():
    pos = chesscore.Position.from_fen(KIWIPETE)
    board = chesscore.svg.board
    plain = board(pos)
    assert board(pos, orientation=chesscore.BLACK) != plain
    assert board(pos, orientation=chesscore.WHITE) == plain
    assert board(pos, lastmove=pos.parse_uci("e2a6")) != plain
    assert board(pos, check="e1").count("<circle") == 4
    arrows = board(pos, arrows=[("e2", "e4"), chesscore.svg.Arrow(6, 21, "red"), chesscore.svg.Arrow(3, 3, None)])
    assert arrows.count("<polygon") == 2 and arrows.count("<circle") == 1 and 'fill="#c82828"' in arrows
    assert 'fill="#123456" fill-opacity="0.5"' in board(pos, fill={"c4": "#12345680"})
    framed = board(pos, squares=[0, "h8"])
    assert framed.count('fill="none" stroke-width="8"') == 2
    assert board(pos, squares=(1 << 0) | (1 << 63)) == framed
    assert 'width="123" height="123"' in board(pos, size=123)
    assert "<text" not in board(pos, coordinates=False) and plain.count("<text") == 32
    colors = {"square light": "#010203", "square dark": "#040506", "margin": "#070809", "coord": "#0a0b0c"}
    recoloured = board(pos, colors=colors)
    assert all(f'fill="{c}"' in recoloured for c in colors.values())
    assert board(pos, colors={"arrow": "#abcdef"}, arrows=[chesscore.svg.Arrow("a1", "a2", None)]).count("#abcdef") == 1


def test_colours_are_read_by_the_library():
    assert chesscore.svg.parse_color("#f80") == 0xFF8800FF
    assert chesscore.svg.parse_color("#a1b2c3d4") == 0xA1B2C3D4
    assert chesscore.svg.parse_color("green") & 0xFF < 0xFF
    for bad in ["", "purple", "#12345", "#ff0000\"/><script>"]:
        with pytest.raises(chesscore.InvalidArgumentError, match="invalid colour"):
            chesscore.svg.parse_color(bad)


def test_bad_arguments():
    pos = chesscore.Position()
    board = chesscore.svg.board
    with pytest.raises(chesscore.ArgumentTypeError):
        board(chesscore.STARTING_FEN)
    with pytest.raises(chesscore.ArgumentTypeError):
        board(pos, orientation=1)
    with pytest.raises(chesscore.ArgumentTypeError):
        board(pos, lastmove="e2e4")
    with pytest.raises(chesscore.InvalidSquareError):
        board(pos, check=64)
    with pytest.raises(chesscore.InvalidSquareError):
        board(pos, arrows=[("e2", "e9")])
    with pytest.raises(chesscore.InvalidArgumentError, match="an arrow is"):
        board(pos, arrows=[("e2",)])
    with pytest.raises(chesscore.ArgumentTypeError):
        board(pos, arrows=["e2e4"])
    with pytest.raises(chesscore.InvalidArgumentError):
        board(pos, size=0)
    with pytest.raises(chesscore.InvalidArgumentError, match="invalid colour"):
        board(pos, fill={"e4": "blood"})
    with pytest.raises(chesscore.InvalidArgumentError, match="colors key"):
        board(pos, colors={"square lite": "#fff"})
    with pytest.raises(chesscore.InvalidArgumentError):
        board(pos, squares=1 << 64)


def variant_pieces(pos):
    return {chesscore.square_name(sq): pos.piece_at(sq).symbol() for sq in range(64) if pos.piece_at(sq)}


@pytest.mark.parametrize(
    "variant, fen",
    [
        (Variant.CRAZYHOUSE, "r2qkb1r/ppp2ppp/2n5/3Q~4/8/8/PPP2PPP/RNB1KB1R[NNBPPpr] b KQkq - 0 9"),
        (Variant.CRAZYHOUSE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"),
        (Variant.THREE_CHECK, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 0 2"),
        (Variant.ATOMIC, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        (Variant.HORDE, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    ],
)
def test_variant_positions_are_drawn_with_what_the_variant_adds(variant, fen):
    pos = VariantPosition.from_fen(variant, fen)
    svg = chesscore.svg.board(pos)
    root = ET.fromstring(svg)
    assert root.find(SVG + "desc").text == pos.fen() and root.get("width") == "400"
    assert pieces(svg) == variant_pieces(pos)
    pockets = {(e.get(CHESS + "pocket"), e.get(CHESS + "piece")): int(e.get(CHESS + "count")) for e in root.iter() if e.get(CHESS + "pocket")}
    checks = {e.get(CHESS + "checks"): int(e.get(CHESS + "remaining")) for e in root.iter() if e.get(CHESS + "checks")}
    promoted = sorted(e.get(CHESS + "promoted") for e in root.iter() if e.get(CHESS + "promoted"))
    if variant == Variant.CRAZYHOUSE:
        for color, side in [(chesscore.WHITE, "w"), (chesscore.BLACK, "b")]:
            for kind, n in pos.pocket(color).items():
                assert pockets.pop((side, chesscore.Piece(kind, color).symbol())) == n
        assert set(pockets.values()) <= {0} and len(pockets) == 10 - sum(len(pos.pocket(c)) for c in (True, False))
        assert promoted == [chesscore.square_name(sq) for sq in pos.promoted()]
    else:
        assert not pockets and not promoted
    if variant == Variant.THREE_CHECK:
        assert checks == {"w": pos.remaining_checks(chesscore.WHITE), "b": pos.remaining_checks(chesscore.BLACK)}
    else:
        assert not checks
    strips = variant in (Variant.CRAZYHOUSE, Variant.THREE_CHECK)
    assert (int(root.get("height")) > 400) == strips
    # Without strips a variant's picture of a chess position is the chess position's.
    if variant == Variant.ATOMIC:
        assert svg == chesscore.svg.board(chesscore.Position.from_fen(fen))
    assert chesscore.svg.board(pos, orientation=chesscore.BLACK, size=200, arrows=[("e2", "e4")]) != svg


def test_variant_repr_svg_marks_the_king_the_variant_counts_in_check():
    three = VariantPosition.from_fen(Variant.THREE_CHECK, "4k2R/8/8/8/8/8/8/4K3 b - - 1+3 0 1")
    assert three._repr_svg_() == chesscore.svg.board(three, check="e8") != chesscore.svg.board(three)
    anti = VariantPosition.from_fen(Variant.ANTICHESS, "4k2R/8/8/8/8/8/8/4K3 b - - 0 1")
    assert anti._repr_svg_() == chesscore.svg.board(anti)


def test_compat_boards_are_drawn_as_their_positions():
    compat = chesscore.compat
    assert chesscore.svg.board(compat.Board(KIWIPETE)) == chesscore.svg.board(chesscore.Position.from_fen(KIWIPETE))
    board = compat.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5"]:
        board.push_san(san)
    pos = VariantPosition.from_fen(Variant.CRAZYHOUSE, board.fen())
    assert chesscore.svg.board(board, size=300) == chesscore.svg.board(pos, size=300)
    assert board._repr_svg_() == pos._repr_svg_()
    with pytest.raises(chesscore.ArgumentTypeError):
        chesscore.svg.board(board.fen())


def test_docstring():
    assert doctest.testmod(chesscore.svg).failed == 0
