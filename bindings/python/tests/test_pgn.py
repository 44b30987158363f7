"""PGN through the binding: read_pgn from a path, bytes and a stream, read_pgn_string, broken
games with their errors, headers, export and reading back, and the games of tests/data/pgn and
the shared PGN files against python-chess."""

import io

import chess
import chess.pgn
import pytest

import chesscore

from conftest import ROOT, data_dir, shared_dir

LOCAL = ROOT / "tests" / "data" / "pgn"
ROSTER = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*"}


def test_read_pgn_from_path_bytes_and_streams():
    path = LOCAL / "format.pgn"
    games = list(chesscore.read_pgn(path))
    assert len(games) == 15 and all(g.error is None for g in games)
    assert sum(len(g) for g in games) == 69
    assert [g.board().fen() for g in chesscore.read_pgn(str(path))] == [g.board().fen() for g in games]
    data = path.read_bytes()
    for source in (data, bytearray(data), memoryview(data), io.BytesIO(data), io.StringIO(data.decode("utf-8"))):
        again = list(chesscore.read_pgn(source))
        assert [(g.headers, g.moves, g.board()) for g in again] == [(g.headers, g.moves, g.board()) for g in games]
    first = games[0]
    assert first.headers["Event"] == 'Escapes "quoted" and \\ backslash'
    assert first.headers["Annotator"] == 'unescaped "quotes" kept'
    assert list(first.headers)[:2] == ["Event", "Site"]
    assert [m.uci() for m in first.moves[:4]] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert first.board().fen() == "r1bqk2r/2ppbppp/p1n2n2/1p2p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 w kq - 0 7"
    chess960 = games[4]
    assert chess960.headers["Variant"] == "Chess960" and chess960.board().chess960
    assert list(chesscore.read_pgn(b"")) == []
    with pytest.raises(chesscore.NoSuchFileError):
        list(chesscore.read_pgn(LOCAL / "missing.pgn"))
    with pytest.raises(chesscore.ArgumentTypeError):
        list(chesscore.read_pgn(42))


def test_compressed_pgn_is_read_from_paths_bytes_and_streams(tmp_path):
    import gzip

    data = (LOCAL / "broken.pgn").read_bytes()
    plain = [(g.headers, g.moves, str(g.error)) for g in chesscore.read_pgn(data)]
    packed = gzip.compress(data)
    path = tmp_path / "broken.pgn.gz"
    path.write_bytes(packed)
    for source in (path, packed, io.BytesIO(packed)):
        assert [(g.headers, g.moves, str(g.error)) for g in chesscore.read_pgn(source)] == plain
    # A cut stream: the games before the cut, then the decoder's error as the last one.
    cut = list(chesscore.read_pgn(packed[:-40]))
    assert len(cut) < len(plain) and cut[-1].error.code == chesscore.ErrorCode.IO
    assert "incomplete deflate stream" in str(cut[-1].error)


def test_threads_give_the_games_of_one_reader_in_order(tmp_path):
    data = (LOCAL / "broken.pgn").read_bytes() * 200
    path = tmp_path / "many.pgn"
    path.write_bytes(data)

    def seen(games):
        return [(g.headers, g.moves, str(g.error)) for g in games]

    one = seen(chesscore.read_pgn(data))
    assert len(one) == 24 * 200
    for threads in (0, 2, 3):
        assert seen(chesscore.read_pgn(path, threads=threads)) == one
        assert seen(chesscore.read_pgn(data, threads=threads)) == one
    with pytest.raises(chesscore.InvalidArgumentError):
        list(chesscore.read_pgn(io.BytesIO(data), threads=2))
    with pytest.raises(chesscore.InvalidArgumentError):
        list(chesscore.read_pgn(data, threads=-1))


def test_pgn_text_in_a_str_is_read_by_read_pgn_string_and_a_str_is_a_path():
    text = (LOCAL / "format.pgn").read_text(encoding="utf-8")
    games = [(g.headers, g.moves) for g in chesscore.read_pgn_string(text)]
    assert games == [(g.headers, g.moves) for g in chesscore.read_pgn(LOCAL / "format.pgn")]
    [game] = chesscore.read_pgn_string('[White "Jos\u00e9"]\n\n1. e4 *\n')
    assert game.headers == {"White": "Jos\u00e9", "Result": "*"} and len(game) == 1
    assert list(chesscore.read_pgn_string("")) == []
    # A str given to read_pgn stays a path, as for open() (python-chess wraps text in io.StringIO).
    pgn = '[White "Morphy"]\n\n1. e4 *\n'
    with pytest.raises(chesscore.NoSuchFileError) as e:
        list(chesscore.read_pgn(pgn))
    assert str(e.value) == f"no such file: {pgn!r}" and e.value.filename == pgn
    for wrong in (text.encode("utf-8"), LOCAL / "format.pgn", io.StringIO(text), None):
        with pytest.raises(chesscore.ArgumentTypeError, match="PGN text must be str"):
            chesscore.read_pgn_string(wrong)
    with pytest.raises(chesscore.InvalidArgumentError):
        chesscore.read_pgn_string("1. e4 {\ud800} *")


def test_broken_games_are_yielded_with_their_error():
    games = list(chesscore.read_pgn(LOCAL / "broken.pgn"))
    assert len(games) == 24
    broken = [g for g in games if g.error is not None]
    assert len(broken) == 13
    # Text that is not UTF-8 is read as Windows-1252, with a warning.
    read = [g for g in games if g.error is None]
    latin = [g for g in read if g.headers["Event"].startswith("Invalid UTF-8")]
    assert [g.headers["Event"] for g in latin] == ["Invalid UTF-8 in a comment", "Invalid UTF-8 in a tag \u00ff"]
    assert all(len(g.warnings) == 1 for g in latin) and not any(g.warnings for g in read if g not in latin)
    assert [g.headers.get("Event") for g in read if g not in latin] == [f"Good {i}" for i in range(1, 10)]
    illegal = games[9]
    assert isinstance(illegal.error, chesscore.PgnError) and isinstance(illegal.error, ValueError)
    assert illegal.error.code == chesscore.ErrorCode.ILLEGAL_MOVE
    assert (illegal.error.line, illegal.error.column, illegal.error.game, illegal.error.ply) == (40, 47, 10, 9)
    assert str(illegal.error) == 'game 10, line 40, column 47: illegal move "Bxe5" at ply 9'
    # What was read of it: the headers and the main line before the bad move.
    assert illegal.headers == {"Event": "Illegal move mid-game"} and len(illegal.moves) == 8
    assert illegal.board().fen() == "r1bqkbnr/1pp2ppp/p1p5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5"
    codes = [g.error.code for g in broken]
    assert codes[:4] == [
        chesscore.ErrorCode.PGN_UNTERMINATED_COMMENT,
        chesscore.ErrorCode.PGN_UNCLOSED_VARIATION,
        chesscore.ErrorCode.PGN_UNMATCHED_PAREN,
        chesscore.ErrorCode.PGN_TAG,
    ]
    assert chesscore.ErrorCode.FEN_MISSING_KING in codes and chesscore.ErrorCode.PGN_VARIANT in codes


def test_a_stream_that_fails_raises_its_error():
    class Failing(io.RawIOBase):
        def read(self, n=-1):
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        list(chesscore.read_pgn(Failing()))


def test_games_read_before_a_stream_fails_come_first():
    # The failure comes after some of the file: every game whole before it is yielded (each the
    # same as in a whole reading), then the stream's own exception is raised.
    data = (LOCAL / "format.pgn").read_bytes()
    whole = [(g.headers, g.moves) for g in chesscore.read_pgn(data)]
    for fail_at in range(0, len(data), 97):

        class FailingAfter(io.RawIOBase):
            left = fail_at

            def readable(self):
                return True

            def readinto(self, buf):
                if self.left == 0:
                    raise OSError("disk on fire")
                n = min(len(buf), self.left, 5)
                start = fail_at - self.left
                buf[:n] = data[start : start + n]
                self.left -= n
                return n

        got = []
        with pytest.raises(OSError, match="disk on fire"):
            for game in chesscore.read_pgn(io.BufferedReader(FailingAfter(), 16)):
                got.append((game.headers, game.moves))
        assert got == whole[: len(got)], fail_at
        # A game whose end and line end came before the failure is among them.
        complete = sum(1 for end in _game_ends(data) if end < fail_at)
        assert len(got) >= complete, (fail_at, len(got), complete)


def _game_ends(data):
    """The offsets of the line ends that close each game of a file with one result per line."""
    ends = []
    for line_start, line in _lines(data):
        if line.rstrip().endswith((b"1-0", b"0-1", b"1/2-1/2", b"*")) and not line.startswith(b"["):
            ends.append(line_start + len(line))
    return ends


def _lines(data):
    start = 0
    for line in data.split(b"\n"):
        yield start, line
        start += len(line) + 1


def test_nul_bytes_break_the_game():
    games = list(chesscore.read_pgn(b'[White "BA\0D"]\n\n1. e4 *\n\n1. e4 {x\0y} e5 *\n\n1. d4 *\n'))
    assert [g.error.code if g.error else None for g in games] == [
        chesscore.ErrorCode.PGN_NUL_BYTE,
        chesscore.ErrorCode.PGN_NUL_BYTE,
        None,
    ]
    assert all(g.pgn() for g in games)  # exports no longer meet a NUL


def test_export_and_headers_read_back():
    pgn = b'[Event "x"]\n[Result "1-0"]\n\n1. e4 $1 {good} e5 (1... c5 {Sicilian}) 2. Nf3 Nc6 1-0\n'
    game = next(chesscore.read_pgn(pgn))
    game.headers["White"] = 'Jos\u00e9 "Pepe"'
    del game.headers["Event"]
    text = game.pgn()
    assert text == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "Jos\u00e9 \\"Pepe\\""]\n'
        '[Black "?"]\n[Result "1-0"]\n\n1. e4 $1 { good } 1... e5 ( 1... c5 { Sicilian } ) 2. Nf3 Nc6 1-0\n'
    )
    back = next(chesscore.read_pgn(text.encode("utf-8")))
    assert back.pgn() == text and back.moves == game.moves and back.board() == game.board()
    copy = game.copy()
    assert copy.pgn() == text and copy.headers == game.headers
    built = chesscore.Game()
    built.push_san("d4")
    built.headers["Result"] = "0-1"
    assert built.pgn().endswith('[Result "0-1"]\n\n1. d4 0-1\n')
    with pytest.raises(chesscore.InvalidArgumentError):
        built.headers["bad name"] = "x"
        built.pgn()
    for path in (LOCAL / "format.pgn", LOCAL / "broken.pgn"):
        for game in chesscore.read_pgn(path):
            if game.error is None:
                again = next(chesscore.read_pgn(game.pgn().encode("utf-8")))
                assert again.pgn() == game.pgn() and again.moves == game.moves


def _unescape(value):
    # python-chess keeps tag values as written; chesscore undoes \" and \\.
    return value.replace('\\"', '"').replace("\\\\", "\\")


def _compare_with_python_chess(path, strict=True, skip_unmatched=False):
    """Every game python-chess reads without error, matched in order with ours by Event: same
    headers, main line and final position. Not `strict`: python-chess reads one tag per line,
    so a header it lacks may be one of ours from a line holding two. Returns how many were
    compared."""
    ours = [g for g in chesscore.read_pgn(path) if not skip_unmatched or g.error is None]
    compared = 0
    at = 0
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        while True:
            theirs = chess.pgn.read_game(f)
            if theirs is None:
                break
            if theirs.errors:
                continue
            headers = {name: _unescape(value) for name, value in theirs.headers.items()}
            found = at
            while found < len(ours) and ours[found].headers.get("Event", "?") != headers["Event"]:
                found += 1
            if found == len(ours) and skip_unmatched:
                continue
            at = found
            assert at < len(ours), f"{path.name}: no game of ours with headers {headers}"
            game = ours[at]
            at += 1
            assert game.error is None, (headers, game.error)
            mine = {**ROSTER, **game.headers}
            if "Result" not in game.headers:
                # python-chess fills the Result header in from the movetext's result.
                mine["Result"] = headers["Result"]
            if strict:
                assert mine == headers
            else:
                assert all(mine[name] == value or value == ROSTER.get(name) for name, value in headers.items())
            assert [m.uci() for m in game.moves] == [m.uci() for m in theirs.mainline_moves()], headers
            assert game.board().fen() == theirs.end().board().fen(), headers
            compared += 1
    return compared


def test_local_pgn_files_match_python_chess():
    # python-chess ends a game at a blank line, not at the next tags, and reads a game without
    # result followed by tags as one game: those games are compared where both agree.
    # python-chess also reads one tag pair per line.
    assert _compare_with_python_chess(LOCAL / "format.pgn", strict=False) >= 10
    assert _compare_with_python_chess(LOCAL / "format_crlf_bom.pgn", strict=False) >= 10
    # broken.pgn: python-chess reads some games chesscore refuses (invalid UTF-8, bad tags)
    # and runs others together after an error, so only a few good games line up.
    assert _compare_with_python_chess(LOCAL / "broken.pgn", skip_unmatched=True) >= 3


@pytest.mark.parametrize("name", ["dev_edge_cases.pgn", "dev_generated.pgn"])
def test_generated_pgn_files_match_python_chess(name):
    check_against_python_chess(data_dir() / "pgn" / name)


@pytest.mark.parametrize("name", ["lichess_db_100k.pgn", "twic1599_100k.pgn"])
def test_real_world_pgn_files_match_python_chess(name):
    check_against_python_chess(shared_dir("python: the lichess and TWIC excerpts") / "pgn" / name)


def check_against_python_chess(path):
    ours = list(chesscore.read_pgn(path))
    assert _compare_with_python_chess(path) == sum(g.error is None for g in ours) > 0


def _their_annotations(node):
    """What python-chess reads from the comment of one of its nodes, as chesscore gives it:
    the eval from White's side, arrows and highlights apart (python-chess gives a highlight
    as an arrow from a square to itself)."""
    score = node.eval()
    evaluation = None
    if score is not None:
        white = score.white()
        mate = white.mate()
        evaluation = (None, mate, node.eval_depth()) if mate is not None else (white.score(), None, node.eval_depth())
    arrows = sorted((a.tail, a.head, a.color) for a in node.arrows() if a.tail != a.head)
    highlights = sorted((a.tail, a.color) for a in node.arrows() if a.tail == a.head)
    return node.clock(), node.emt(), evaluation, arrows, highlights


def _our_annotations(move):
    evaluation = None if move.eval is None else tuple(move.eval)
    arrows = sorted(tuple(a) for a in move.arrows)
    highlights = sorted(tuple(h) for h in move.highlights)
    return move.clock, move.emt, evaluation, arrows, highlights


@pytest.mark.parametrize("name", ["lichess_db_100k.pgn", "dev_generated.pgn"])
def test_annotations_match_python_chess(name):
    """Clock, elapsed time, evaluation, arrows and highlights of every main-line move, against
    python-chess's node.clock(), .emt(), .eval(), .eval_depth() and .arrows()."""
    path = shared_dir("python: annotations against python-chess") / "pgn" / name
    ours = [game for game in chesscore.read_pgn(path) if game.error is None]
    compared = annotated = 0
    with open(path, encoding="utf-8") as f:
        for game in ours:
            theirs = chess.pgn.read_game(f)
            while theirs.errors:
                theirs = chess.pgn.read_game(f)
            moves = game.mainline()
            nodes = list(theirs.mainline())
            assert [m.move.uci() for m in moves] == [n.move.uci() for n in nodes], game.headers
            for move, node in zip(moves, nodes):
                expected = _their_annotations(node)
                assert _our_annotations(move) == expected, (game.headers.get("Site"), move, node.comment)
                compared += 1
                annotated += any(value not in (None, []) for value in expected)
    assert compared > 2000 and annotated >= 100, (compared, annotated)


def test_real_world_syntax_and_warnings():
    games = list(chesscore.read_pgn(b"[White \"M\xfcller\"]\n\n1. e4 e5 2 . Nf3 Nc6* \n\n1. O\xe2\x80\x91O \xc2\xbd-\xc2\xbd\n"))
    assert games[0].headers["White"] == "M\u00fcller"
    assert games[0].warnings == ["line 1, column 1: text that is not UTF-8 read as Windows-1252"]
    assert [m.uci() for m in games[0].moves] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert games[1].warnings == [] and games[1].error is not None  # O-O is illegal at move 1
    strict = list(chesscore.read_pgn_string("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7++ 1-0", strict=True))
    assert strict[0].error.code == chesscore.ErrorCode.PGN_NON_STANDARD
    assert "check sign ++" in str(strict[0].error)
    lenient = next(chesscore.read_pgn_string("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7++ 1-0"))
    assert lenient.error is None and lenient.board().is_checkmate()


def test_chessbase_tags_and_missing_results_read_as_python_chess_reads_them():
    import chess.pgn

    text = (
        '[Event "ChessBase"]\n\n[Site "Hamburg"]\n\n1. d4 d5 0-1\n\n'
        '[Event "Round 1"]\n[Site "s"]\n\n[Event "Round 2"]\n\n1. e4 *\n'
    )
    games = list(chesscore.read_pgn_string(text))
    assert [g.headers for g in games] == [
        {"Event": "ChessBase", "Site": "Hamburg", "Result": "0-1"},
        {"Event": "Round 1", "Site": "s"},
        {"Event": "Round 2", "Result": "*"},
    ]
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert {k: theirs.headers[k] for k in ("Event", "Site", "Result")} == games[0].headers
    assert [m.uci() for m in theirs.mainline_moves()] == [m.uci() for m in games[0].moves]


def test_a_bad_move_in_a_variation_cuts_the_variation_with_a_warning():
    [game] = chesscore.read_pgn_string("1. d4 (1. e4 e5 2. Qxh7 Nc6) d5 0-1\n")
    assert game.error is None and [m.uci() for m in game.moves] == ["d2d4", "d7d5"]
    assert game.warnings == ["line 1, column 20: a move in a variation cannot be played: the variation is cut before it"]
    assert game.pgn().endswith("1. d4 ( 1. e4 e5 ) 1... d5 0-1\n")
    [strict] = chesscore.read_pgn_string("1. d4 (1. e4 e5 2. Qxh7 Nc6) d5 0-1\n", strict=True)
    assert strict.error is not None


def test_game_moves_carry_their_comments_and_commands():
    text = "1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5 $1 { [%eval #-4,22] [%clk 0:02:59.5] } 2. Nf3 { [%csl Ga4,Rb5][%cal Ge2e4] Good [%emt 0:00:05] } *"
    moves = next(chesscore.read_pgn_string(text)).mainline()
    assert [m.san for m in moves] == ["e4", "e5", "Nf3"]
    assert [m.clock for m in moves] == [180.0, 179.5, None]
    assert [m.emt for m in moves] == [None, None, 5.0]
    assert moves[0].eval == chesscore.Eval(cp=17, mate=None, depth=None)
    assert moves[1].eval == chesscore.Eval(cp=None, mate=-4, depth=22)
    assert moves[1].nags == [1]
    assert moves[2].arrows == [chesscore.svg.Arrow(chesscore.parse_square("e2"), chesscore.parse_square("e4"), "green")]
    assert moves[2].highlights == [chesscore.Highlight(24, "green"), chesscore.Highlight(33, "red")]
    assert moves[2].comment == "Good" and moves[0].comment == ""
    assert moves[2].comments == ["[%csl Ga4,Rb5][%cal Ge2e4] Good [%emt 0:00:05]"]


def _per_node(move):
    """What a GameMove reads one library call at a time (as python-chess's nodes in compat do)."""
    alone = chesscore.GameMove(move._game, move._node)
    return alone.ply, alone.move, alone.san, alone.clock, alone.emt, alone.eval


def test_a_main_line_read_in_arrays_is_the_one_read_node_by_node():
    shared = shared_dir("python: the main line in arrays") / "pgn"
    files = [shared / "lichess_db_100k.pgn", shared / "twic1599_100k.pgn", LOCAL / "format.pgn", LOCAL / "broken.pgn"]
    clocks = evals = 0
    for game in (game for path in files for game in chesscore.read_pgn(path)):
        moves = game.mainline()
        assert [m.move for m in moves] == game.moves
        for move in moves:
            assert (move.ply, move.move, move.san, move.clock, move.emt, move.eval) == _per_node(move)
            clocks += move.clock is not None
            evals += move.eval is not None
    assert clocks > 1000 and evals > 50


def test_main_line_moves_taken_before_a_change_read_the_game_as_it_is():
    game = next(chesscore.read_pgn_string("1. e2-e4 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } *"))
    moves = game.mainline()
    assert [m.san for m in moves] == ["e2-e4", "e5"] and moves[0].clock == 180.0
    game.pop()
    game.push_san("c5")
    again = game.mainline()
    assert [m.san for m in again] == ["e2-e4", "c5"] and again[1].clock is None
    assert moves[0].san == "e2-e4" and moves[0].clock == 180.0  # read from the game as it is now


def test_headers_only_reads_the_headers_of_every_game_without_moves():
    path = shared_dir("python: headers only") / "pgn" / "lichess_db_100k.pgn"
    whole = list(chesscore.read_pgn(path))
    headers = list(chesscore.read_pgn(path, headers_only=True))
    assert [g.headers for g in headers] == [g.headers for g in whole]
    assert all(len(g) == 0 and g.moves == [] and g.mainline() == [] for g in headers)
    with open(path, encoding="utf-8") as f:
        theirs = iter(lambda: chess.pgn.read_headers(f), None)
        assert [dict(h) for h in theirs] == [g.headers for g in headers]
    text = '[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Kd2 garbage *\n'
    game = next(chesscore.read_pgn_string(text, headers_only=True))
    assert game.error is None and game.board().fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    with pytest.raises(chesscore.ArgumentTypeError):
        next(chesscore.read_pgn(path, headers_only=1))


def test_headers_are_read_when_asked_and_may_be_replaced():
    game = next(chesscore.read_pgn_string('[White "A"]\n[Black "B"]\n\n1. e4 *'))
    assert game._headers is None  # nothing read yet
    assert game.headers == {"White": "A", "Black": "B", "Result": "*"} and game.headers is game.headers
    game.headers = {"White": "C"}
    assert '[White "C"]\n[Black "?"]' in game.pgn()
    long = "x" * 5000  # past the buffer kept for tags
    assert next(chesscore.read_pgn_string(f'[Annotator "{long}"]\n\n*')).headers == {"Annotator": long, "Result": "*"}


def test_split_pgn_cuts_a_file_into_pieces_of_whole_games(tmp_path):
    data = LOCAL.joinpath("broken.pgn").read_bytes() * 40
    path = tmp_path / "big.pgn"
    path.write_bytes(data)
    whole = [(g.headers, g.moves, g.error is None) for g in chesscore.read_pgn(path)]
    for parts in (1, 3, 8):
        pieces = chesscore.split_pgn(path, parts)
        assert len(pieces) == parts and pieces[0][0] == 0 and pieces[-1][1] == len(data)
        assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
        games = [(g.headers, g.moves, g.error is None) for start, end in pieces for g in chesscore.read_pgn(data[start:end])]
        assert games == whole
    assert len(chesscore.split_pgn(path, 10**6)) <= len(whole)
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert chesscore.split_pgn(empty, 4) == [(0, 0)]
    gz = tmp_path / "big.pgn.gz"
    gz.write_bytes(__import__("gzip").compress(data))
    with pytest.raises(chesscore.InvalidArgumentError):
        chesscore.split_pgn(gz, 2)
    with pytest.raises(chesscore.NoSuchFileError):
        chesscore.split_pgn(tmp_path / "missing.pgn", 2)
    with pytest.raises(chesscore.InvalidArgumentError):
        chesscore.split_pgn(path, 0)


def test_games_longer_than_the_buffers_kept_are_read_whole():
    shuffle = " ".join(f"{2 * i + 1}. Nf3 Nf6 {2 * i + 2}. Ng1 Ng8" for i in range(300))
    game = next(chesscore.read_pgn_string(shuffle + " *"))
    assert game.error is None and len(game) == 1200
    assert [m.uci() for m in game.moves[:4]] == ["g1f3", "g8f6", "f3g1", "f6g8"] and len(game.moves) == 1200
    line = game.mainline()
    assert len(line) == 1200 and line[-1].san == "Ng8" and line[-1].ply == 1200
    assert [m.move for m in line] == game.moves
