"""chesscore.compat's squares, bitboards, SquareSet, pieces, moves and outcomes against
python-chess's: every public name of its ``chess`` module outside the boards, each function on
every square (and pair of squares) and on random bitboards, SquareSet's operations with every
kind of operand, and programs written as python-chess's documentation writes them, comparing
results and the types of the exceptions raised."""

import doctest
import itertools
import random
import types
import typing

import chess
import pytest

from chesscore import compat

# python-chess's public names that are no part of its API here: the modules and typing names it
# imports, its regexes (its own parsing), and the boards' names, which test_compat.py covers.
IMPORTED = {
    "annotations", "collections", "copy", "dataclasses", "enum", "itertools", "math", "re", "typing",
    "Callable", "ClassVar", "Counter", "Dict", "Generic", "Hashable", "Iterable", "Iterator", "List",
    "Literal", "Mapping", "Optional", "SupportsInt", "Tuple", "Type", "TypeVar", "Union",
}  # fmt: skip
# python-chess's parsing regexes, which compat has not (docs/python.md lists them).
NOT_HERE = {"SAN_REGEX", "FEN_CASTLING_REGEX"}
BOARDS = {"BaseBoard", "BaseBoardT", "Board", "BoardT", "LegalMoveGenerator", "PseudoLegalMoveGenerator"}

rng = random.Random(35)
RANDOM_BOARDS = [rng.getrandbits(64) for _ in range(300)] + [rng.getrandbits(64) & rng.getrandbits(64) for _ in range(100)]
EDGE_BOARDS = [0, 1, 1 << 63, chess.BB_ALL, chess.BB_LIGHT_SQUARES, chess.BB_FILE_A, chess.BB_RANK_8]
ODD_INTS = [-1, -2, -(1 << 63), 1 << 64, (1 << 64) + 5, 1 << 70]


def answer(call):
    """A call's value, or the type of the exception it raised."""
    try:
        return ("ok", call())
    except Exception as error:  # noqa: BLE001 - the type is what is compared
        return ("raises", type(error).__name__)


def plain(value):
    """A value comparable across the two libraries: SquareSets as masks, iterators as lists,
    moves and pieces as text, enums by name."""
    if isinstance(value, (chess.SquareSet, compat.SquareSet)):
        return ("SquareSet", value.mask, repr(value), str(value))
    if isinstance(value, (chess.Move, compat.Move, chess.Piece, compat.Piece)):
        return (type(value).__name__, repr(value), str(value))
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "__next__"):
        return ("iterator", [plain(v) for v in value])
    if isinstance(value, (chess.Termination, compat.Termination)):
        return ("Termination", value.name, value.value)
    return value


def same(call_ours, call_theirs):
    ours, theirs = answer(call_ours), answer(call_theirs)
    assert (ours[0], plain(ours[1])) == (theirs[0], plain(theirs[1]))


def public_names():
    """python-chess's names but its submodules (chess.svg, ... once imported) and imports."""
    return sorted(
        name for name in dir(chess)
        if not name.startswith("_") and name not in IMPORTED | BOARDS and not isinstance(getattr(chess, name), types.ModuleType)
    )  # fmt: skip


def test_no_public_name_python_chess_lacks():
    # (That every name of python-chess is here or listed, test_compat_names.py checks.)
    # No __all__, as python-chess has none: a star import takes every public name.
    ours = {name for name in dir(compat) if not name.startswith("_") and not isinstance(getattr(compat, name), types.ModuleType)}
    assert ours <= set(dir(chess)), ours - set(dir(chess))
    assert not hasattr(compat, "__all__") and not hasattr(chess, "__all__")
    namespace = {}
    exec("from chesscore.compat import *", namespace)
    assert {name for name in public_names() if name not in NOT_HERE} <= set(namespace) | {"BB_DIAG_ATTACKS", "BB_FILE_ATTACKS", "BB_RANK_ATTACKS", "BB_RAYS"}


@pytest.mark.parametrize("name", [n for n in public_names() if n not in NOT_HERE and not callable(getattr(chess, n))])
def test_every_constant_and_table_equals_python_chess_s(name):
    theirs = getattr(chess, name)
    ours = getattr(compat, name)
    if isinstance(theirs, chess.Status):
        assert (ours.name, int(ours)) == (theirs.name, int(theirs))
    elif isinstance(theirs, (type(typing.Union[int, str]), type(typing.Literal["a"]))):
        assert repr(ours) == repr(theirs)
    else:
        assert ours == theirs and type(ours) is type(theirs)


def test_the_big_tables_are_built_on_first_use():
    for name in ("BB_DIAG_ATTACKS", "BB_FILE_ATTACKS", "BB_RANK_ATTACKS", "BB_RAYS"):
        table = getattr(compat, name)
        assert vars(compat)[name] is table is getattr(compat, name)  # built once
    with pytest.raises(AttributeError):
        compat.BB_NO_SUCH_TABLE  # noqa: B018


SQUARE_FUNCTIONS = ["square_file", "square_rank", "square_name", "square_mirror", "piece_symbol", "piece_name"]
PAIR_FUNCTIONS = ["square_distance", "square_manhattan_distance", "square_knight_distance", "ray", "between", "square"]
ODD_SQUARES = [-1, 64, 65]


@pytest.mark.parametrize("name", SQUARE_FUNCTIONS)
def test_square_functions_on_every_square(name):
    for sq in list(range(-8, 72)):
        same(lambda: getattr(compat, name)(sq), lambda: getattr(chess, name)(sq))


@pytest.mark.parametrize("name", PAIR_FUNCTIONS)
def test_pair_functions_on_every_pair_of_squares(name):
    ours, theirs = getattr(compat, name), getattr(chess, name)
    for a in chess.SQUARES:
        for b in chess.SQUARES:
            assert ours(a, b) == theirs(a, b), (name, a, b)
    # Numbers off the board: python-chess's arithmetic, or an IndexError, alike; except the
    # knight's distance, which spreads the library's jumps over the board's squares only.
    for a in ODD_SQUARES if name != "square_knight_distance" else []:
        for b in [0, 27, 63]:
            same(lambda: ours(a, b), lambda: theirs(a, b))
            same(lambda: ours(b, a), lambda: theirs(b, a))


def test_parse_square_on_every_name_and_others():
    for text in chess.SQUARE_NAMES + ["E4", "e9", "i1", "", "e44", " e4", None, 4]:
        same(lambda: compat.parse_square(text), lambda: chess.parse_square(text))


BITBOARD_FUNCTIONS = [
    "lsb", "msb", "scan_forward", "scan_reversed", "popcount",
    "flip_vertical", "flip_horizontal", "flip_diagonal", "flip_anti_diagonal",
    "shift_down", "shift_2_down", "shift_up", "shift_2_up", "shift_right", "shift_2_right",
    "shift_left", "shift_2_left", "shift_up_left", "shift_up_right", "shift_down_left", "shift_down_right",
]  # fmt: skip


@pytest.mark.parametrize("name", BITBOARD_FUNCTIONS)
def test_bitboard_functions_on_random_bitboards(name):
    ours, theirs = getattr(compat, name), getattr(chess, name)
    for bb in RANDOM_BOARDS + EDGE_BOARDS + chess.BB_SQUARES:
        assert plain(ours(bb)) == plain(theirs(bb)), (name, hex(bb))
    # A SquareSet given for a bitboard, as python-chess's functions take one.
    for bb in RANDOM_BOARDS[:50]:
        same(lambda: int(ours(compat.SquareSet(bb))), lambda: int(theirs(chess.SquareSet(bb))))


# python-chess's functions give what their arithmetic gives for ints outside 64 bits; these
# give the same (the flips read the low 64 bits, which python-chess's do only for some).
@pytest.mark.parametrize("name", [n for n in BITBOARD_FUNCTIONS if not n.startswith("flip_") and "scan" not in n])
def test_bitboard_functions_on_ints_outside_64_bits(name):
    for bb in ODD_INTS:
        same(lambda: getattr(compat, name)(bb), lambda: getattr(chess, name)(bb))


def test_bitboard_functions_on_what_is_no_int():
    for value in (1.5, None, "3"):
        for name in ("popcount", "lsb", "msb", "shift_up", "flip_vertical"):
            same(lambda: plain(getattr(compat, name)(value)), lambda: plain(getattr(chess, name)(value)))


def test_attack_tables_by_square_and_occupancy():
    for sq in chess.SQUARES:
        for table in ("BB_KNIGHT_ATTACKS", "BB_KING_ATTACKS"):
            assert getattr(compat, table)[sq] == getattr(chess, table)[sq]
        for color in chess.COLORS:
            assert compat.BB_PAWN_ATTACKS[color][sq] == chess.BB_PAWN_ATTACKS[color][sq]
        for kind in ("DIAG", "FILE", "RANK"):
            mask = getattr(compat, f"BB_{kind}_MASKS")[sq]
            assert mask == getattr(chess, f"BB_{kind}_MASKS")[sq]
            ours, theirs = getattr(compat, f"BB_{kind}_ATTACKS")[sq], getattr(chess, f"BB_{kind}_ATTACKS")[sq]
            assert ours == theirs
            for occupied in RANDOM_BOARDS[:20]:
                assert ours[occupied & mask] == theirs[occupied & mask]


class IntLike:
    def __int__(self):
        return 0x8100


class IndexOnly:
    def __index__(self):
        return 3


def operands():
    """What python-chess's SquareSet operations take, and some they refuse."""
    return [
        0, 5, chess.BB_ALL, chess.BB_LIGHT_SQUARES, -1, 1 << 64, (1 << 64) | 6, 2.0, True,
        [0, 1, 63], {2, 3}, (), range(8), [-1], [64], ["a1"], [1.0], "e4", None, IntLike(), IndexOnly(),
        float("nan"),
    ]  # fmt: skip


def both_sets(mask):
    return compat.SquareSet(mask), chess.SquareSet(mask)


MASKS = EDGE_BOARDS + RANDOM_BOARDS[:12]
BINARY = ["__or__", "__and__", "__xor__", "__sub__", "union", "intersection", "difference", "symmetric_difference",
          "isdisjoint", "issubset", "issuperset", "__eq__", "__ne__"]  # fmt: skip
IN_PLACE = ["__ior__", "__iand__", "__ixor__", "__isub__", "update", "intersection_update", "difference_update",
            "symmetric_difference_update", "add", "discard", "remove", "__ilshift__", "__irshift__"]  # fmt: skip


def test_square_set_construction():
    for value in operands() + MASKS:
        same(lambda: compat.SquareSet(value), lambda: chess.SquareSet(value))
    same(lambda: compat.SquareSet(), lambda: chess.SquareSet())
    same(lambda: compat.SquareSet(compat.SquareSet(6)), lambda: chess.SquareSet(chess.SquareSet(6)))
    for sq in list(range(64)) + ODD_SQUARES:
        same(lambda: compat.SquareSet.from_square(sq), lambda: chess.SquareSet.from_square(sq))
    for a in chess.SQUARES:
        for b in (0, 7, 9, 36, 63):
            same(lambda: compat.SquareSet.ray(a, b), lambda: chess.SquareSet.ray(a, b))
            same(lambda: compat.SquareSet.between(a, b), lambda: chess.SquareSet.between(a, b))


@pytest.mark.parametrize("op", BINARY)
def test_square_set_binary_operations(op):
    for mask in MASKS:
        for other in operands() + MASKS:
            ours, theirs = both_sets(mask)
            same(lambda: getattr(ours, op)(other), lambda: getattr(theirs, op)(other))
            ours, theirs = both_sets(mask)
            same(lambda: getattr(ours, op)(compat.SquareSet(other)), lambda: getattr(theirs, op)(chess.SquareSet(other)))
    # Reflected operations: python-chess's SquareSet has none.
    same(lambda: 5 | compat.SquareSet(3), lambda: 5 | chess.SquareSet(3))
    same(lambda: 5 & compat.SquareSet(3), lambda: 5 & chess.SquareSet(3))


@pytest.mark.parametrize("op", IN_PLACE)
def test_square_set_in_place_operations(op):
    arguments = operands() + MASKS + list(range(-2, 66))
    for mask in MASKS:
        for other in arguments:
            ours, theirs = both_sets(mask)
            same(lambda: getattr(ours, op)(other), lambda: getattr(theirs, op)(other))
            assert ours.mask == theirs.mask
    for mask in MASKS:
        ours, theirs = both_sets(mask)
        if op in ("update", "intersection_update"):
            same(lambda: getattr(ours, op)(1, [2], chess.SquareSet(4)), lambda: getattr(theirs, op)(1, [2], chess.SquareSet(4)))
            same(lambda: getattr(ours, op)(), lambda: getattr(theirs, op)())
        else:
            same(lambda: getattr(ours, op)(1, 2), lambda: getattr(theirs, op)(1, 2))
        assert ours.mask == theirs.mask


def test_square_set_unary_operations_and_protocols():
    for mask in MASKS:
        ours, theirs = both_sets(mask)
        for name in ("__invert__", "__len__", "__bool__", "__int__", "__index__", "__repr__", "__str__", "mirror", "tolist", "copy"):
            same(getattr(ours, name), getattr(theirs, name))
        assert list(ours) == list(theirs) and list(reversed(ours)) == list(reversed(theirs))
        for shift in (0, 1, 8, 63, 64, -1):
            same(lambda: ours << shift, lambda: theirs << shift)
            same(lambda: ours >> shift, lambda: theirs >> shift)
        same(lambda: ours << 1.0, lambda: theirs << 1.0)
        same(lambda: ours << compat.SquareSet(1), lambda: theirs << chess.SquareSet(1))
        for sq in list(range(-3, 67)) + ["a", None, 1.0, True]:
            same(lambda: sq in ours, lambda: sq in theirs)
        same(lambda: hash(ours), lambda: hash(theirs))
        same(lambda: ours == theirs.mask, lambda: theirs == ours.mask)
        assert list(itertools.islice(ours.carry_rippler(), 300)) == list(itertools.islice(theirs.carry_rippler(), 300))
    for mask in [0x8000_0000_0000_0000, 0x3C, 0xFF00_0000_0000_0000]:
        assert list(compat.SquareSet(mask).carry_rippler()) == list(chess.SquareSet(mask).carry_rippler())


def test_square_set_pop_and_clear():
    for mask in MASKS:
        ours, theirs = both_sets(mask)
        for _ in range(66):
            same(ours.pop, theirs.pop)
        ours, theirs = both_sets(mask)
        ours.clear(), theirs.clear()
        assert ours.mask == theirs.mask == 0


def test_pieces_as_python_chess_s():
    for symbol in ["P", "n", "K", "q", "x", "", "PP", "Pp", "1", 1, None, "♙"]:
        same(lambda: compat.Piece.from_symbol(symbol), lambda: chess.Piece.from_symbol(symbol))
    for piece_type in chess.PIECE_TYPES:
        for color in chess.COLORS:
            ours, theirs = compat.Piece(piece_type, color), chess.Piece(piece_type, color)
            assert (ours.symbol(), str(ours), repr(ours), ours.unicode_symbol(), ours.unicode_symbol(invert_color=True)) == (
                theirs.symbol(), str(theirs), repr(theirs), theirs.unicode_symbol(), theirs.unicode_symbol(invert_color=True)
            )  # fmt: skip
            assert ours == compat.Piece.from_symbol(theirs.symbol()) and hash(ours) == hash(theirs)
            same(lambda: ours < ours, lambda: theirs < theirs)


UCI = ["e2e4", "e7e8q", "a7a8n", "e2e4k", "e2e4p", "e2e4Q", "0000", "h1a8", "P@e4", "p@e4", "K@h8", "X@e4",
       "@e4", "P@e9", "P@E4", "P@e4q", "e2e2", "a1a1q", "", "e2e4qq", "E2e4", "e2e9", "i2e4", "0000 ", "00000",
       "@@@@", "e2e4\n", None, 1]  # fmt: skip


def test_moves_as_python_chess_s():
    for text in UCI:
        same(lambda: compat.Move.from_uci(text), lambda: chess.Move.from_uci(text))
        ours, theirs = answer(lambda: compat.Move.from_uci(text)), answer(lambda: chess.Move.from_uci(text))
        if ours[0] == "ok":
            ours, theirs = ours[1], theirs[1]
            assert (ours.from_square, ours.to_square, ours.promotion, ours.drop) == (
                theirs.from_square, theirs.to_square, theirs.promotion, theirs.drop
            )  # fmt: skip
            assert (ours.uci(), ours.xboard(), str(ours), repr(ours), bool(ours)) == (
                theirs.uci(), theirs.xboard(), str(theirs), repr(theirs), bool(theirs)
            )  # fmt: skip
    for fields in [(0, 0), (0, 0, 1), (8, 8, None, 1), (12, 28), (52, 60, 5), (1, 2, None, 6)]:
        ours, theirs = compat.Move(*fields), chess.Move(*fields)
        assert (ours.uci(), ours.xboard(), repr(ours), bool(ours)) == (theirs.uci(), theirs.xboard(), repr(theirs), bool(theirs))
    assert compat.Move.null() == compat.Move(0, 0) and not compat.Move.null()
    assert repr(compat.Move.null()) == repr(chess.Move.null()) and compat.Move.null().xboard() == chess.Move.null().xboard()
    same(lambda: compat.Move(1, 2) == (1, 2), lambda: chess.Move(1, 2) == (1, 2))
    same(lambda: compat.Move(1, 2) < compat.Move(1, 3), lambda: chess.Move(1, 2) < chess.Move(1, 3))


def test_outcomes_and_status_as_python_chess_s():
    assert [(t.name, t.value) for t in compat.Termination] == [(t.name, t.value) for t in chess.Termination]
    for termination in chess.Termination:
        for winner in (True, False, None):
            ours = compat.Outcome(compat.Termination[termination.name], winner)
            theirs = chess.Outcome(termination, winner)
            assert (repr(ours), ours.result(), ours.winner) == (repr(theirs), theirs.result(), theirs.winner)
            assert ours == compat.Outcome(compat.Termination[termination.name], winner)
            same(lambda: hash(ours), lambda: hash(theirs))
    same(lambda: compat.Termination.CHECKMATE == 1, lambda: chess.Termination.CHECKMATE == 1)
    assert [(s.name, s.value) for s in compat.Status] == [(s.name, s.value) for s in chess.Status]
    assert repr(compat.Status(3)) == repr(chess.Status(3)) and compat.STATUS_EMPTY == chess.STATUS_EMPTY


def documented_program(chess):
    """Square sets and bitboards as python-chess's documentation (the "Square sets" section and
    the module's reference) uses them, written once for either library: what it prints."""
    out = []
    squares = chess.SquareSet([chess.A8, chess.A1])
    out.append(repr(squares))
    out.append(squares == chess.SquareSet(chess.BB_A8 | chess.BB_A1))
    squares = chess.SquareSet(chess.BB_A8 | chess.BB_RANK_1)
    out.append(str(squares))
    out.append(len(squares))
    out.append(chess.E8 in squares)
    out.append([chess.square_name(sq) for sq in squares])
    out.append(list(reversed(squares)))
    out.append(int(squares))
    out.append(repr(chess.SquareSet(chess.BB_CORNERS).mirror()))
    out.append(chess.SquareSet(chess.BB_DARK_SQUARES).issuperset(chess.BB_A1))
    out.append(chess.SquareSet(chess.BB_LIGHT_SQUARES).isdisjoint(chess.BB_DARK_SQUARES))
    out.append(repr(chess.SquareSet.between(chess.A1, chess.H8)))
    out.append(repr(chess.SquareSet.ray(chess.E1, chess.E4)))
    out.append(repr(chess.SquareSet.from_square(chess.E4)))
    squares = chess.SquareSet()
    squares.add(chess.E4)
    squares |= chess.BB_D4
    squares.update([chess.D5, chess.E5], chess.BB_F6)
    squares -= [chess.F6]
    squares.discard(chess.H8)
    out.append(squares == chess.BB_CENTER)
    out.append(squares.pop())
    squares.remove(chess.E4)
    out.append(str(squares))
    out.append(squares.tolist().count(True))
    try:
        squares.remove(chess.A1)
    except KeyError as error:
        out.append(("KeyError", error.args))
    out.append(sorted(chess.SquareSet(chess.BB_KNIGHT_ATTACKS[chess.G1])))
    out.append(chess.square_name(chess.msb(chess.BB_PAWN_ATTACKS[chess.WHITE][chess.E4])))
    occupied = chess.BB_D4 | chess.BB_F6 | chess.BB_B2
    diagonal = chess.BB_DIAG_ATTACKS[chess.E5][chess.BB_DIAG_MASKS[chess.E5] & occupied]
    out.append(repr(chess.SquareSet(diagonal)))
    out.append(chess.square_knight_distance(chess.A1, chess.H8))
    out.append([chess.square_name(sq) for sq in chess.SQUARES_180[:3]])
    out.append([hex(f(chess.BB_FILE_A | chess.BB_RANK_1)) for f in (chess.flip_vertical, chess.flip_horizontal, chess.flip_diagonal, chess.flip_anti_diagonal)])
    out.append(chess.piece_name(chess.KNIGHT) + " " + chess.Piece.from_symbol("n").unicode_symbol())
    out.append(repr(chess.Move.from_uci("P@e4")))
    out.append([chess.Move.from_uci(u).drop for u in ("Q@d1", "e2e4")])
    out.append(repr(chess.Outcome(chess.Termination.CHECKMATE, chess.WHITE)))
    out.append(chess.Outcome(chess.Termination.FIVEFOLD_REPETITION, None).result())
    try:
        chess.Piece.from_symbol("z")
    except ValueError:
        out.append("no piece z")
    return out


def test_documentation_programs_print_the_same():
    assert documented_program(compat) == documented_program(chess)


def test_doc_examples():
    import chesscore.compat._moves
    import chesscore.compat._squares

    for module in (chesscore.compat._squares, chesscore.compat._moves):
        assert doctest.testmod(module).failed == 0
