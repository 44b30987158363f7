"""chesscore.compat.pgn against python-chess's chess.pgn: the same programs through both, on the
PGN files of the test data and on random trees built and edited by a program, comparing the
results, the exception types, the export text, the visitors' calls and the handles' positions."""

import io
import logging
import random

import chess
import chess.pgn
import pytest

import chesscore.compat
import chesscore.compat.pgn

from conftest import data_dir, shared_dir

OURS = (chesscore.compat, chesscore.compat.pgn)
THEIRS = (chess, chess.pgn)

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # both report parse errors there


def plain(value):
    """A value of either library as plain data, to compare them."""
    if isinstance(value, (chesscore.compat.Move, chess.Move)):
        return ("move", value.uci())
    if isinstance(value, (chesscore.compat.Board, chess.Board)):
        return ("board", value.fen(), [m.uci() for m in value.move_stack])
    if isinstance(value, (chesscore.compat.pgn.Headers, chess.pgn.Headers)):
        return ("headers", list(value.items()))
    if isinstance(value, (chesscore.compat.pgn.GameNode, chess.pgn.GameNode)):
        return ("node", None if value.move is None else value.move.uci(), value.comment, value.starting_comment, sorted(value.nags))
    if isinstance(value, BaseException):
        return ("raises", type(value).__name__)
    if type(value).__name__ == "Arrow":
        return ("arrow", value.tail, value.head, value.color)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, set):
        return sorted(value)
    if isinstance(value, float):
        return round(value, 6)
    for name in ("TimeControlType", "SkipType"):
        if type(value).__name__ == name:
            return (name, value.name)
    if type(value).__name__ == "TimeControl":
        return ("tc", plain(value.type), [(p.moves, p.time, p.increment, p.delay) for p in value.parts])
    if type(value).__name__ == "PovScore":
        return ("pov", value.turn, repr(value.relative))
    return value


def both(program, *args):
    """``program(chess, pgn, *args)`` run with each library: its plain results, or the type of
    what it raised."""
    out = []
    for modules in (OURS, THEIRS):
        try:
            out.append(plain(program(*modules, *args)))
        except Exception as e:  # noqa: BLE001 - compared by type
            out.append(plain(e))
    return out


def same(program, *args):
    ours, theirs = both(program, *args)
    assert ours == theirs
    return ours


def tree_shape(node):
    """A node and everything below it as plain data."""
    return [plain(node), node.is_mainline(), node.starts_variation(), node.is_main_variation(), node.ply()] + [
        tree_shape(child) for child in node.variations
    ]


class Recorder:
    """A visitor's calls, with the boards as FENs, for either library."""

    def __init__(self, base, skip_variations=False):
        self.calls = []
        self.base = base
        self.skip_variations = skip_variations

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def call(*args):
            self.calls.append((name,) + tuple(plain(a) for a in args))
            if name == "parse_san":
                return args[0].parse_san(args[1])
            if name == "begin_variation" and self.skip_variations:
                return self.base.SKIP
            if name == "result":
                return self.calls
            if name == "handle_error":
                return None
            return None

        return call


def recorder(pgn, skip_variations=False):
    class Visitor(pgn.BaseVisitor):
        def result(self):
            return None

    # Every method of BaseVisitor recorded, result() included.
    def make():
        rec = Recorder(pgn, skip_variations)
        visitor = Visitor()
        for name in ["begin_game", "begin_headers", "visit_header", "end_headers", "begin_parse_san", "parse_san",
                     "visit_move", "visit_board", "visit_comment", "visit_nag", "begin_variation", "end_variation",
                     "visit_result", "end_game", "result", "handle_error"]:  # fmt: skip
            setattr(visitor, name, getattr(rec, name))
        return visitor

    return make


PGN_FILES = ["dev_edge_cases.pgn", "dev_generated.pgn", "format.pgn", "format_crlf_bom.pgn"]
SHARED_FILES = ["lichess_db_100k.pgn", "twic1599_100k.pgn"]


def pgn_path(name):
    local = data_dir() / "pgn" / name
    return local if local.exists() else shared_dir(f"compat pgn: {name}") / "pgn" / name


def games_of(pgn, text, **options):
    handle = io.StringIO(text)
    out = []
    while True:
        game = pgn.read_game(handle, **options)
        out.append(handle.tell())
        if game is None:
            return out
        out.append(game)


def exports(game, pgn):
    """The game's text through every exporter setting."""
    texts = [str(game), repr(game.mainline_moves()).split("(", 1)[1], str(game.mainline_moves())]
    for columns in (80, None, 20):
        for headers, comments, variations in ((True, True, True), (False, True, False), (True, False, True), (True, False, False)):
            texts.append(game.accept(pgn.StringExporter(columns=columns, headers=headers, comments=comments, variations=variations)))
    out = io.StringIO()
    texts.append(game.accept(pgn.FileExporter(out)))
    texts.append(out.getvalue())
    return texts


@pytest.mark.parametrize("name", PGN_FILES + SHARED_FILES)
def test_pgn_files_read_and_export_as_python_chess(name):
    text = pgn_path(name).read_text(encoding="utf-8", errors="replace")
    ours, theirs = games_of(chesscore.compat.pgn, text), games_of(chess.pgn, text)
    assert len(ours) == len(theirs)
    for mine, other in zip(ours, theirs):
        if isinstance(other, int):  # the handle's position after each game
            assert mine == other
            continue
        assert [type(e).__name__ for e in mine.errors] == [type(e).__name__ for e in other.errors]
        assert list(mine.headers.items()) == list(other.headers.items())
        assert tree_shape(mine) == tree_shape(other)
        assert exports(mine, chesscore.compat.pgn) == exports(other, chess.pgn)
        for node, node_other in zip(mine.mainline(), other.mainline()):
            assert [node.clock(), node.emt(), node.eval_depth()] == [node_other.clock(), node_other.emt(), node_other.eval_depth()]
            assert plain(node.eval()) == plain(node_other.eval())
            assert plain(node.arrows()) == plain(node_other.arrows())
            assert node.san() == node_other.san() and node.uci() == node_other.uci()
        assert mine.end().board().fen() == other.end().board().fen()


@pytest.mark.parametrize("name", PGN_FILES + SHARED_FILES)
@pytest.mark.parametrize("skip_variations", [False, True])
def test_visitors_called_as_python_chess_calls_them(name, skip_variations):
    text = pgn_path(name).read_text(encoding="utf-8", errors="replace")
    ours = games_of(chesscore.compat.pgn, text, Visitor=recorder(chesscore.compat.pgn, skip_variations))
    theirs = games_of(chess.pgn, text, Visitor=recorder(chess.pgn, skip_variations))
    assert ours == theirs


@pytest.mark.parametrize("name", PGN_FILES + SHARED_FILES)
def test_builders_and_skipping_as_python_chess(name):
    text = pgn_path(name).read_text(encoding="utf-8", errors="replace")
    for visitor in ("HeadersBuilder", "BoardBuilder", "SkipVisitor"):
        same(lambda chess, pgn: games_of(pgn, text, Visitor=getattr(pgn, visitor)))
    same(lambda chess, pgn: [pgn.read_headers(h) for h in [io.StringIO(text)] for _ in range(5)])
    same(lambda chess, pgn: [(pgn.skip_game(h), h.tell()) for h in [io.StringIO(text)] for _ in range(5)])
    # A game's tree walked again: the same calls as python-chess's walk.
    def walk(chess, pgn):
        handle = io.StringIO(text)
        out = []
        for _ in range(8):
            game = pgn.read_game(handle)
            if game is None:
                break
            out.append(game.accept(recorder(pgn)()))
            if game.next() is not None:
                out.append(game.next().accept(recorder(pgn, True)()))
                out.append(game.next().accept_subgame(recorder(pgn)()))
                out.append(str(game.next()))
            out.append(game.mainline().accept(recorder(pgn)()))
        return out

    same(walk)


def test_broken_games_split_as_python_chess_splits_them():
    """Broken text: the games end where python-chess ends them, and the good ones read the same;
    what each keeps of a broken game differs (see the report of differences)."""
    text = pgn_path("broken.pgn").read_text(encoding="utf-8", errors="replace")
    ours, theirs = games_of(chesscore.compat.pgn, text), games_of(chess.pgn, text)
    assert [g for g in ours if isinstance(g, int)] == [g for g in theirs if isinstance(g, int)]
    good = 0
    for mine, other in zip(ours[1::2], theirs[1::2]):
        if mine is not None and not mine.errors and not other.errors and "never closed" not in str(other):
            assert str(mine) == str(other)
            good += 1
    assert good >= 3


MOVETEXTS = [
    "1. e4 e5 2. Nf3 *",
    "{ Opening } 1. e4 { good } ( { Alternative } 1. d4 d5 ) 1... e5 $1 $14 2. Nf3 ?! *",
    "1. e4 e5 2. Ke3 Nc6 3. Nf3 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 *",
    "1. e4 {a\nmultiline comment} e5 ; a rest-of-line comment\n2. Nf3 1/2-1/2",
    "1. f3 e5 2. g4 Qh4# 0-1",
    "1. e4 -- 2. d4 *",
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# { mate } 1-0 { after the result }",
    "1. e4 { a } ( 1. d4 { b } ) { c } ( 1. c4 ) { d } 1... e5 ( 1... c5 ) { e } 2. Nf3 *",
    "1. e4 e5 +- 2. Nf3 ± Nc6 = 3. Bb5 =+ *",
    "1. e4 e5 2. Nf3 * 3. Nc3 1-0",
    "1. e4 e5 2. Nf3 { a comment\n\nover a blank line } Nc6 *",
    "1. e4 e5 { never closed 2. Nf3",
    "{  two spaces  } 1. e4 {\tx } e5 {} 2. Nf3 { } { x\n } Nc6 {y} {  } *",
]


@pytest.mark.parametrize("movetext", MOVETEXTS)
def test_movetexts_read_as_python_chess(movetext):
    for prefix in ("", '[Event "x"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]\n\n'):
        text = prefix + movetext + "\n\n" + movetext + "\n"
        same(lambda chess, pgn: [(g, tree_shape(g), str(g), [type(e).__name__ for e in g.errors]) if not isinstance(g, int) else g for g in games_of(pgn, text)])
        same(lambda chess, pgn: games_of(pgn, text, Visitor=recorder(pgn)))


def test_handles_as_python_chess(tmp_path):
    path = tmp_path / "games.pgn"
    path.write_text(pgn_path("dev_generated.pgn").read_text(encoding="utf-8"), encoding="utf-8")

    def offsets_then_seek(chess, pgn):
        out, offsets = [], []
        with open(path, encoding="utf-8") as handle:
            for _ in range(6):
                offset = handle.tell()
                headers = pgn.read_headers(handle)
                if headers is None:
                    break
                offsets.append(offset)
                out.append(headers)
            for offset in reversed(offsets):
                handle.seek(offset)
                game = pgn.read_game(handle)
                out.append((str(game), handle.tell()))
        return out

    same(offsets_then_seek)
    same(lambda chess, pgn: pgn.read_game(open("/dev/null", encoding="utf-8")))
    same(lambda chess, pgn: pgn.read_game(io.StringIO("")))
    same(lambda chess, pgn: pgn.read_game(io.StringIO("\n\n% escape\n; comment\n")))
    same(lambda chess, pgn: pgn.read_game(io.BytesIO(b"1. e4 *")))
    same(lambda chess, pgn: pgn.read_game(open(path, "rb")))


def test_documented_programs_as_python_chess():
    def build(chess, pgn):
        game = pgn.Game()
        game.headers["Event"] = "Example"
        node = game.add_variation(chess.Move.from_uci("e2e4"))
        node = node.add_variation(chess.Move.from_uci("e7e5"), comment="Comment", nags=[pgn.NAG_GOOD_MOVE])
        node.parent.add_variation(chess.Move.from_uci("c7c5"), starting_comment="Sicilian")
        node.add_line([chess.Move.from_uci(u) for u in ("g1f3", "b8c6", "f1b5")], comment="Ruy", nags={3})
        game.next().promote(1)
        game.next().demote(0)
        game.next().promote_to_main(chess.Move.from_uci("e7e5"))
        game.next().add_main_variation(chess.Move.from_uci("d7d5"), comment="Scandi")
        out = [str(game), game.next().variation(1), game.next().variation(chess.Move.from_uci("c7c5")),
               game.next().has_variation(chess.Move.from_uci("c7c5")), chess.Move.from_uci("a2a3") in game,
               game.end(), game.end().turn(), game.end().ply(), game.end().san(), game.end().uci(),
               game.end().board(), game.next().variations[1].starts_variation(), repr(game.end()).split(" (")[1]]  # fmt: skip
        game.next().remove_variation(0)
        out.append(str(game))
        for call in (lambda: game.variation(5), lambda: game.variation(chess.Move.from_uci("a2a4")), lambda: game.next().demote(chess.Move.from_uci("h2h4"))):
            try:
                call()
            except Exception as e:  # noqa: BLE001
                out.append(e)
        return out

    same(build)

    def from_board(chess, pgn):
        board = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        for san in ["e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]:
            board.push_san(san)
        game = pgn.Game.from_board(board)
        game.headers["White"] = "Fool"
        empty = pgn.Game.without_tag_roster()
        empty.setup("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        chess960 = pgn.Game()
        chess960.setup(chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True))
        return [str(game), game.headers, game.ply(), game.board(), game.end().board(), str(empty), empty.headers, empty.ply(),
                str(chess960), chess960.board().chess960, chess960.headers.is_chess960(), repr(game).split(" (")[1]]  # fmt: skip

    same(from_board)

    def castling_uci(chess, pgn):
        out = []
        for fen, chess960, sans in (
            ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", False, ["O-O", "O-O-O", "Kd2"]),
            ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", True, ["O-O", "Nf6"]),
        ):
            game = pgn.Game()
            game.setup(chess.Board(fen, chess960=chess960))
            board = game.board()
            node = game
            for san in sans:
                node = node.add_variation(board.push_san(san))
            out += [[(n.uci(), n.uci(chess960=True), n.uci(chess960=False)) for n in game.mainline()], str(game)]
        return out

    same(castling_uci)


def test_headers_as_python_chess():
    def headers(chess, pgn):
        h = pgn.Headers()
        out = [h, len(h), list(h)]
        h["Zeta"] = "z"
        h["Annotator"] = "a"
        del h["Event"]
        h["Event"] = "back"
        h["Variant"] = "wild/1"
        out += [h, h.is_wild(), h.is_chess960(), h.copy(), h == h.copy(), h.variant() is chess.Board]
        h["Variant"] = "Fischerandom"
        out += [h.is_chess960(), h.board()]
        h["FEN"] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        out.append(h.board())
        for key, value in (("bad tag", "x"), ("Good", "line\nbreak"), ("_x", "y"), ("White", "multi\nline")):
            try:
                h[key] = value
                out.append(h.get(key))
            except ValueError as e:
                out.append(e)
        h["Variant"] = "Nonsense"
        try:
            h.variant()
        except ValueError as e:
            out.append(e)
        out.append(pgn.Headers(White="w", Black="b"))
        out.append(pgn.Headers({"A": "1"}, B="2"))
        out.append(pgn.Headers([("Site", "s"), ("Event", "e")]))
        out.append(pgn.Game.without_tag_roster().headers)
        return out

    same(headers)


@pytest.mark.parametrize(
    "control", ["", "?", "-", "300", "300+2", "180+2", "40/7200:3600", "40/7200:20/3600:900+30", "900+10d", "60", "0+1", "x", "40/7200:40/3600", "300:+1"]
)
def test_time_controls_as_python_chess(control):
    same(lambda chess, pgn: pgn.parse_time_control(control))
    same(lambda chess, pgn: pgn.Game({"TimeControl": control}).time_control())


def test_doc_examples():
    import doctest

    from chesscore.compat.pgn import _visitors

    for module in (chesscore.compat.pgn, _visitors):
        failed, attempted = doctest.testmod(module)
        assert failed == 0 and attempted > 0


def test_unchanged_names_and_constants():
    for name in dir(chess.pgn):
        if name.startswith("NAG_") or name == "TAG_ROSTER":
            assert getattr(chesscore.compat.pgn, name) == getattr(chess.pgn, name), name
    assert chesscore.compat.pgn.SKIP is chesscore.compat.pgn.SkipType.SKIP and chesscore.compat.pgn.SKIP.value is None
    with pytest.raises(TypeError):
        chesscore.compat.pgn.GameNode()
    with pytest.raises(TypeError):
        chesscore.compat.pgn.BaseVisitor()


# Every public name of chess.pgn is here or in docs/python.md's list: test_compat_names.py.


# -- Random trees, built and edited the same way through both libraries.

START_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 12",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/5N2/PP2PPPP/RNBQKB1R w KQkq c6 0 4",
]


def random_tree(chess, pgn, seed, fen):
    """A game grown and edited at random: the same for a given seed in either library, as the
    choices only depend on the tree and the moves in python-chess's order (sorted by UCI)."""
    rng = random.Random(seed)
    game = pgn.Game()
    if fen != chess.STARTING_FEN:
        game.setup(fen)
    nodes = [game]
    for _ in range(rng.randrange(5, 60)):
        node = rng.choice(nodes)
        board = node.board()
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if moves:
            move = rng.choice(moves)
            if node.has_variation(move):
                continue
            kind = rng.random()
            comment = rng.choice(["", "plain", "two words", "{brace}", " padded  ", "[%clk 0:01:02] text", "multi\nline"])
            nags = rng.sample([1, 2, 3, 4, 5, 6, 14, 18, 146], rng.randrange(3))
            if kind < 0.6:
                child = node.add_variation(move, comment=comment, nags=nags, starting_comment=rng.choice(["", "", "start"]))
            elif kind < 0.8:
                child = node.add_main_variation(move, comment=comment, nags=nags)
            else:
                child = node.add_line([move], comment=comment, starting_comment=rng.choice(["", "line"]), nags=nags)
            nodes.append(child)
        edit = rng.random()
        target = rng.choice(nodes)
        if edit < 0.1 and target.variations:
            target.promote(rng.randrange(len(target.variations)))
        elif edit < 0.2 and target.variations:
            target.demote(rng.randrange(len(target.variations)))
        elif edit < 0.25 and target.variations:
            target.promote_to_main(target.variations[-1].move)
        elif edit < 0.3 and len(target.variations) > 1:
            removed = target.variations[-1]
            target.remove_variation(removed)
            nodes = [n for n in nodes if n.root() is game and n not in removed.mainline() and n is not removed and _attached(n, game)]
        elif edit < 0.45:
            target.set_clock(rng.choice([None, 0, 59.5, 3600 * 2 + 61.25, -3, 12.0004]))
        elif edit < 0.55:
            target.set_emt(rng.choice([None, 5, 0.5]))
        elif edit < 0.7:
            score = rng.choice([None, chess.engine.PovScore(chess.engine.Cp(rng.randrange(-500, 500)), rng.random() < 0.5),
                                chess.engine.PovScore(chess.engine.Mate(rng.choice([-3, 2, 1])), chess.WHITE)])  # fmt: skip
            target.set_eval(score, rng.choice([None, 20, -1]))
        elif edit < 0.8:
            squares = rng.sample(range(64), 4)
            target.set_arrows(rng.choice([[], [(squares[0], squares[1])], [(squares[2], squares[2]), (squares[0], squares[3])]]))
        elif edit < 0.85:
            target.comment = rng.choice(["", "x", "x [%eval 0.5,3] y", "[%cal Ge2e4,Rd1d8][%csl Ya1] z", "[%clk 1:00:00]"])
    game.headers["Result"] = rng.choice(["*", "1-0", "0-1", "1/2-1/2"])
    return game


def _attached(node, game):
    while node.parent is not None:
        if node not in node.parent.variations:
            return False
        node = node.parent
    return node is game


def random_tree_results(chess, pgn, seed, fen):
    game = random_tree(chess, pgn, seed, fen)
    out = [tree_shape(game), exports(game, pgn), game.accept(recorder(pgn)()), game.accept(recorder(pgn, True)())]
    if game.variations:
        out += [game.variations[-1].accept(recorder(pgn)()), game.variations[-1].accept_subgame(recorder(pgn)())]
    for node in [game] + [n for n in _all_nodes(game)]:
        out.append([node.clock(), node.emt(), node.eval(), node.eval_depth(), node.arrows(), node.turn()])
    reread = pgn.read_game(io.StringIO(str(game)))
    out.append([tree_shape(reread), str(reread)])
    return out


def _all_nodes(node):
    for child in node.variations:
        yield child
        yield from _all_nodes(child)


@pytest.mark.parametrize("seed", range(60))
def test_random_edited_trees_as_python_chess(seed):
    import chess.engine  # noqa: F401 - the scores of set_eval
    import chesscore.compat.engine

    same(random_tree_results, seed, START_FENS[seed % len(START_FENS)])


# After such a move python-chess reads the rest of the game on the variation's board (its
# variation ends without its board being dropped), which the library does not: the variations
# here end their games.
@pytest.mark.parametrize(
    "movetext",
    [
        "1. e4 e5 ( 1... c5 2. Kf3 )",
        "1. e4 e5 ( 1... Kd4 )",
        "1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 Nc6 ( 2... d6 { x } 3. Ke3 Nf6 ( 3... Nc6 ) )",
        "1. e4 { x } ( 1. d4 d5 2. Ke3 { y } )",
    ],
)
def test_moves_that_cannot_be_played_in_variations_are_errors_as_in_python_chess(movetext):
    same(lambda chess, pgn: [(g, tree_shape(g), str(g), [(type(e).__name__, str(e)) for e in g.errors]) if not isinstance(g, int) else g for g in games_of(pgn, movetext)])
    same(lambda chess, pgn: games_of(pgn, movetext, Visitor=recorder(pgn)))


def test_custom_visitors_and_builders_as_python_chess():
    text = "1. e4 e5 2. Ke3 *\n\n[Event \"Two\"]\n\n1. d4 { x } d5 ( 1... Nf6 ) 2. c4 1-0\n"

    def program(chess, pgn):
        class Quiet(pgn.GameBuilder):
            def handle_error(self, error):
                self.game.errors.append(("quiet", type(error).__name__))

        class MyGame(pgn.Game):
            pass

        class CountMoves(pgn.BaseVisitor):
            def begin_game(self):
                self.moves = 0

            def visit_move(self, board, move):
                self.moves += 1

            def result(self):
                return self.moves

        class Lenient(pgn.GameBuilder):
            def parse_san(self, board, san):
                return board.parse_san(san.replace("K", "Q")) if san == "Ke3" else super().parse_san(board, san)

        out = []
        for visitor in (Quiet, MyGame.builder, CountMoves, Lenient, pgn.BoardBuilder):
            handle = io.StringIO(text)
            games = [pgn.read_game(handle, Visitor=visitor) for _ in range(3)]
            out.append([(type(g).__name__, str(g), g.errors) if isinstance(g, pgn.Game) else g for g in games])
        return out

    same(program)

    def raising(chess, pgn):
        class Strict(pgn.BaseVisitor):
            def result(self):
                return None

        return pgn.read_game(io.StringIO(text), Visitor=Strict)

    same(raising)


def test_the_programs_of_python_chess_documentation(tmp_path):
    """The examples of python-chess's PGN documentation, as a user would run them."""
    path = tmp_path / "games.pgn"
    path.write_text(pgn_path("twic1599_100k.pgn").read_text(encoding="utf-8"), encoding="utf-8")

    def reading(chess, pgn):
        with open(path, encoding="utf-8") as handle:
            first_game = pgn.read_game(handle)
            second_game = pgn.read_game(handle)
        board = first_game.board()
        for move in first_game.mainline_moves():
            board.push(move)
        return [first_game.headers["Event"], board, second_game.headers["White"], first_game.end().board()]

    def writing(chess, pgn):
        game = pgn.Game()
        game.headers["Event"] = "Example"
        node = game.add_variation(chess.Move.from_uci("e2e4"))
        node = node.add_variation(chess.Move.from_uci("e7e5"))
        node.comment = "Comment"
        exporter = pgn.StringExporter(headers=True, variations=True, comments=True)
        out = io.StringIO()
        game.accept(pgn.FileExporter(out))
        return [str(game), game.accept(exporter), out.getvalue(), repr(game.headers)]

    def walking(chess, pgn):
        game = pgn.read_game(io.StringIO("1. e4 e5 ( 1... c5 ) 2. Nf3 *"))
        out = []
        for node in game.mainline():
            out.append((node.move.uci(), node.ply(), node.turn(), node.is_mainline(), [v.move.uci() for v in node.variations]))
        out.append([m.uci() for m in reversed(game.mainline_moves())])
        out.append(bool(game.mainline_moves()))
        return out

    for program in (reading, writing, walking):
        same(program)


def node_classes_program(chess_pgn):
    """A program with its own node classes, read through its game class's builder: the kinds of
    the nodes made."""

    class MyGameNode(chess_pgn.GameNode):
        def add_variation(self, move, *, comment="", starting_comment="", nags=()):
            return MyChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    class MyChildNode(chess_pgn.ChildNode, MyGameNode):
        pass

    class MyGame(chess_pgn.Game, MyGameNode):
        pass

    game = chess_pgn.read_game(io.StringIO("1. e4 (1. d4 d5) e5 {x} 2. Nf3 *"), Visitor=MyGame.builder)
    nodes = [game] + [node for node in _all_nodes(game)]
    return [type(node).__name__ for node in nodes], str(game)


def _all_nodes(node):
    for child in node.variations:
        yield child
        yield from _all_nodes(child)


def test_a_program_s_own_node_classes_are_made_as_python_chess_makes_them():
    assert node_classes_program(chesscore.compat.pgn) == node_classes_program(chess.pgn)


def test_variant_games_read_as_python_chess_reads_them():
    """python-chess's PGN of the generated games of every lichess variant (a variation and
    comments on some) read by both: the same boards, moves, variations, errors and export."""
    import importlib.util
    import os

    import chesscore.compat.variant

    script = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "python_chess_variant_pgn.py")
    spec = importlib.util.spec_from_file_location("python_chess_variant_pgn", script)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    names = ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"]
    texts = [text for name in names for text in generator.games(name, limit=10)]
    both = "\n\n".join(texts)
    theirs, ours = io.StringIO(both), io.StringIO(both)
    for _ in texts:
        expected, got = chess.pgn.read_game(theirs), chesscore.compat.pgn.read_game(ours)
        assert type(got.board()).__name__ == type(expected.board()).__name__
        assert got.end().board().fen() == expected.end().board().fen()
        assert [m.uci() for m in got.mainline_moves()] == [m.uci() for m in expected.mainline_moves()]
        assert [v.move.uci() for v in got.variations] == [v.move.uci() for v in expected.variations]
        assert got.errors == expected.errors == []
        assert str(got) == str(expected)
    assert chesscore.compat.pgn.read_game(ours) is None and ours.tell() == theirs.tell()
    # A variant compat does not play (python-chess's suicide) is an error, as an unknown name is.
    game = chesscore.compat.pgn.read_game(io.StringIO('[Variant "Suicide"]\n\n1. e4 *\n'))
    assert game.errors and isinstance(game.errors[0], ValueError)

