"""`chesscore pgn filter` against the same selection made with python-chess (the oracle) over the
shared PGN files: tags, players, results, positions, material, plies, mate and stalemate, and
duplicates. The command is `CHESSCORE_CLI` (tests/python.rs passes the one this build made)."""

import fnmatch
import functools
import io
import re
import subprocess

import chess
import chess.pgn
import chess.polyglot
import pytest

from conftest import cli_command, not_run, shared_dir

SUITE = "python: pgn filter against python-chess"


@pytest.fixture(scope="module")
def cli():
    return cli_command(SUITE)


@pytest.fixture(scope="module")
def files():
    paths = sorted((shared_dir(SUITE) / "pgn").glob("*.pgn"))
    if not paths:
        not_run("testdata", SUITE, "no PGN files in the shared test data")
    return paths


class RawTags(chess.pgn.GameBuilder):
    """python-chess's game, with the tags as the file has them (python-chess fills in the Seven
    Tag Roster, so it cannot tell a missing tag from one that says `?`)."""

    def begin_game(self):
        super().begin_game()
        self.raw = {}

    def visit_header(self, name, value):
        self.raw[name] = value
        super().visit_header(name, value)

    def result(self):
        game = super().result()
        game.raw_tags = self.raw
        return game


@functools.cache
def read_games(path):
    games = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f, Visitor=RawTags)) is not None:
            games.append(game)
    return tuple(games)


def identity(game):
    """What tells the games of the files apart: tags and main line. python-chess keeps the
    escapes of a tag value (`\\"`), where the command reads a quote."""
    def value(name):
        return game.headers[name].replace('\\"', '"').replace("\\\\", "\\")

    moves = tuple(move.uci() for move in game.mainline_moves())
    return (*map(value, ("Event", "Site", "Round", "White", "Black")), moves)


NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def tag_holds(raw, name, op, value):
    if name not in raw:
        return op == "!="
    actual = raw[name]
    if op == "~":
        return fnmatch.fnmatchcase(actual, value)
    if NUMBER.fullmatch(actual) and NUMBER.fullmatch(value):
        a, b = float(actual), float(value)
    else:
        # Text in byte order, as the command compares it.
        a, b = actual.encode(), value.encode()
    return {"=": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def boards(game):
    board = game.board()
    yield board.copy()
    for move in game.mainline_moves():
        board.push(move)
        yield board.copy()


def position_key(board):
    """A position as the command compares them: the Polyglot key (en passant only where a pawn
    of the side to move could take), pieces, side to move, castling rights."""
    return (chess.polyglot.zobrist_hash(board), board.board_fen(), board.turn, board.clean_castling_rights())


def material(board):
    return tuple(
        tuple(len(board.pieces(kind, color)) for kind in chess.PIECE_TYPES) for color in (chess.WHITE, chess.BLACK)
    )


SEEN = {}


def main_line(game):
    """The position keys and material of the main line's positions, the start included (worked
    out once per game)."""
    if id(game) not in SEEN:
        SEEN[id(game)] = (game, [(position_key(b), material(b)) for b in boards(game)])
    return SEEN[id(game)][1]


def spec_material(spec):
    white, black = spec.split("v")
    return tuple(tuple(side.count(chess.piece_symbol(kind).upper()) for kind in chess.PIECE_TYPES) for side in (white, black))


def reference(games, tags=(), player=None, result=None, positions=(), spec=None, min_plies=None, max_plies=None,
              checkmate=False, stalemate=False, dedupe=False):
    targets = {position_key(chess.Board(fen)) for fen in positions}
    wanted = None
    if spec:
        m = spec_material(spec)
        wanted = {m, (m[1], m[0])}
    kept, seen = [], set()
    for game in games:
        raw = game.raw_tags
        if not all(tag_holds(raw, *condition) for condition in tags):
            continue
        if player is not None and not any(
            name in raw and fnmatch.fnmatchcase(raw[name], player) for name in ("White", "Black")
        ):
            continue
        if result is not None and raw.get("Result", game.headers["Result"]) != result:
            continue
        plies = len(list(game.mainline_moves()))
        if (min_plies is not None and plies < min_plies) or (max_plies is not None and plies > max_plies):
            continue
        end = game.end().board()
        if (checkmate and not end.is_checkmate()) or (stalemate and not end.is_stalemate()):
            continue
        if targets and not any(key in targets for key, _ in main_line(game)):
            continue
        if wanted and not any(m in wanted for _, m in main_line(game)):
            continue
        if dedupe:
            key = (game.board().fen(en_passant="fen"), tuple(m.uci() for m in game.mainline_moves()))
            if key in seen:
                continue
            seen.add(key)
        kept.append(identity(game))
    return kept


def run_filter(cli, paths, args, threads="2"):
    done = subprocess.run(
        [cli, "pgn", "filter", "--threads", threads, *args, *map(str, paths)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    written = []
    stream = io.StringIO(done.stdout)
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        written.append(identity(game))
    total = sum(len(read_games(path)) for path in paths)
    assert done.stderr.splitlines()[-1] == f"{len(written)} of {total} games written", done.stderr
    return written


def good_games(paths):
    """The games of the files, in order, without the broken ones (the command skips them)."""
    return [game for path in paths for game in read_games(path) if not game.errors]


def tag_arg(name, op, value):
    return ["--tag", f"{name} {op} {value}"]


def positions_of(games):
    """A few positions the games pass through, written with their en passant square whether or
    not a capture is possible, and the standard ones after 1. e4 (the key ignores its square)
    and 1. e4 c5 2. Nf3; Chess960 games left out (`--position` reads standard FENs)."""
    fens = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    ]
    # Standard chess: --position reads a standard FEN.
    for game in [game for game in games if not game.board().chess960][::9]:
        all_boards = list(boards(game))
        for ply in (9, 24):
            if ply < len(all_boards):
                fens.append(all_boards[ply].fen(en_passant="fen"))
    return fens


CASES = [
    dict(tags=[("WhiteElo", ">=", "2500")]),
    dict(tags=[("WhiteElo", "<", "2000"), ("BlackElo", "!=", "1500")]),
    dict(tags=[("BlackElo", "!=", "2767")]),
    dict(tags=[("Date", "<", "2025.06.20")]),
    dict(tags=[("Event", "~", "*Cup*")]),
    dict(tags=[("Round", ">", "5")]),
    dict(tags=[("ECO", "~", "B?0")]),
    dict(player="A*"),
    dict(player="*?a*"),
    dict(result="1-0"),
    dict(result="1/2-1/2"),
    dict(result="*"),
    dict(spec="KRPvKR"),
    dict(spec="KRvKR"),
    dict(spec="KRBvKR"),
    dict(spec="KvKQ"),
    dict(spec="KPvK"),
    dict(min_plies=60),
    dict(max_plies=20),
    dict(min_plies=40, max_plies=80, result="0-1"),
    dict(checkmate=True),
    dict(stalemate=True),
]


def arguments(case):
    args = []
    for condition in case.get("tags", ()):
        args += tag_arg(*condition)
    for option in ("player", "result", "min_plies", "max_plies"):
        if case.get(option) is not None:
            args += ["--" + option.replace("_", "-"), str(case[option])]
    if case.get("spec"):
        args += ["--material", case["spec"]]
    for fen in case.get("positions", ()):
        args += ["--position", fen]
    for flag in ("checkmate", "stalemate", "dedupe"):
        if case.get(flag):
            args.append("--" + flag)
    return args


@pytest.mark.parametrize("case", CASES, ids=lambda case: " ".join(arguments(case)))
def test_conditions_select_what_python_chess_selects(cli, files, case):
    games = good_games(files)
    expected = reference(games, **case)
    assert run_filter(cli, files, arguments(case)) == expected
    # Each case selects some games and leaves others out, or it would test little.
    assert 0 < len(expected) < len(games), len(expected)


def test_positions_select_what_python_chess_selects(cli, files):
    games = good_games(files)
    fens = positions_of(games)
    assert len(fens) > 10
    found_any = False
    for fen in fens:
        expected = reference(games, positions=[fen])
        found_any |= bool(expected)
        assert run_filter(cli, files, ["--position", fen]) == expected, fen
    assert found_any
    # Any of several.
    assert run_filter(cli, files, arguments(dict(positions=fens[:5]))) == reference(games, positions=fens[:5])


def test_dedupe_keeps_what_python_chess_keeps(cli, files):
    # Every file twice: the second copy of each game is a duplicate.
    twice = files + files
    games = good_games(twice)
    expected = reference(games, dedupe=True)
    assert len(expected) <= len(games) // 2
    for threads in ("1", "4"):
        assert run_filter(cli, twice, ["--dedupe"], threads) == expected
    case = dict(tags=[("WhiteElo", ">", "2600")], dedupe=True)
    assert run_filter(cli, twice, arguments(case)) == reference(games, **case)
