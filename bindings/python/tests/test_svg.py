"""chesscore.svg.board and Position._repr_svg_: the document read back with xml.etree, each
keyword argument reaching the picture, and bad arguments."""

import doctest
import xml.etree.ElementTree as ET

import pytest

import chesscore
import chesscore.svg

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


def test_docstring():
    assert doctest.testmod(chesscore.svg).failed == 0
