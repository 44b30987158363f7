"""chesscore.compat.variant against python-chess's chess.variant, as programs written against
python-chess's documentation use it: random games of every variant in which each position's
legal moves, SAN and UCI (both ways), FEN, checks, endings, material, pockets and remaining
checks agree, and pop restores the FEN; find_variant on every alias; crazyhouse drops; PGN of
variant games."""

import doctest
import random

import chess
import chess.pgn
import chess.variant
import pytest

import chesscore.compat as compat
import chesscore.svg
import chesscore.variant
import chesscore.compat.pgn
import chesscore.compat.variant

from conftest import shuffling_move

NAMES = ["AtomicBoard", "AntichessBoard", "CrazyhouseBoard", "KingOfTheHillBoard", "ThreeCheckBoard", "HordeBoard", "RacingKingsBoard"]
SEEDS = {name: 38 + i for i, name in enumerate(NAMES)}
GAMES, PLIES = 10, 120


def outcome_of(board):
    """An outcome as comparable names; None also for python-chess's fivefold repetition (a
    variant board keeps no repetitions)."""
    outcome = board.outcome()
    if outcome is None or outcome.termination == chess.Termination.FIVEFOLD_REPETITION:
        return None
    return (outcome.termination.name, outcome.winner)


def state(board):
    """What a position says of itself, through python-chess's API (either library's)."""
    facts = {
        "fen": board.fen(),
        "fen_unpromoted": board.fen(promoted=False),
        "epd": board.epd(),
        "board_fen": board.board_fen(),
        "turn": board.turn,
        "check": board.is_check(),
        "checkmate": board.is_checkmate(),
        "stalemate": board.is_stalemate(),
        "variant": (board.is_variant_end(), board.is_variant_win(), board.is_variant_loss(), board.is_variant_draw()),
        "outcome": outcome_of(board),
        "material": (board.has_insufficient_material(True), board.has_insufficient_material(False), board.is_insufficient_material()),
        "pieces": {sq: p.symbol() for sq, p in board.piece_map().items()},
        "king": (board.king(True), board.king(False)),
        "clocks": (board.halfmove_clock, board.fullmove_number, board.ep_square, board.castling_rights),
        "castling": (board.has_castling_rights(True), board.has_castling_rights(False), board.clean_castling_rights(), board.castling_xfen()),
    }
    occupied = [sq for sq in chess.SQUARES if board.piece_at(sq)]
    facts["attacks"] = [int(board.attacks(sq)) for sq in occupied] + [board.attacks_mask(sq) for sq in occupied[:3]]
    facts["attackers"] = [(board.attackers_mask(color, sq), board.is_attacked_by(color, sq)) for color in (True, False) for sq in (chess.E4, chess.D5, chess.H8)]
    facts["masks"] = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings, board.occupied, board.occupied_co)
    if hasattr(board, "pockets"):  # (only crazyhouse boards of the library keep promoted pieces)
        facts["promoted"] = board.promoted
        facts["pockets"] = [(str(p), len(p), [p.count(kind) for kind in chess.PIECE_TYPES]) for p in board.pockets]
        facts["drop_squares"] = (list(board.legal_drop_squares()), board.legal_drop_squares_mask() & chess.BB_ALL)
    if hasattr(board, "remaining_checks"):
        facts["checks"] = list(board.remaining_checks)
    return facts


def play_games(name):
    """The number of positions compared in random games of one variant."""
    rng = random.Random(SEEDS[name])
    theirs_cls, ours_cls = getattr(chess.variant, name), getattr(compat.variant, name)
    compared = 0
    for _ in range(GAMES):
        theirs, ours = theirs_cls(), ours_cls()
        for _ in range(PLIES):
            assert state(ours) == state(theirs), theirs.fen()
            legal = sorted(m.uci() for m in theirs.legal_moves)
            assert sorted(m.uci() for m in ours.legal_moves) == legal, theirs.fen()
            assert ours.legal_moves.count() == len(legal) == len(ours.legal_moves)
            compared += 1
            if outcome_of(theirs) or not legal:
                break
            for uci in legal:
                move = chess.Move.from_uci(uci)
                san = theirs.san(move)
                ours_move = compat.Move.from_uci(uci)
                assert ours_move in ours.legal_moves and ours.is_legal(ours_move)
                assert ours.san(ours_move) == san, (theirs.fen(), uci)
                assert ours.parse_san(san) == ours_move, (theirs.fen(), san)
                assert ours.parse_uci(uci) == ours_move
                assert ours.xboard(ours_move) == theirs.xboard(move)
                assert ours.is_zeroing(ours_move) == theirs.is_zeroing(move)
                kinds = (theirs.is_capture(move), theirs.is_castling(move), theirs.is_en_passant(move))
                assert (ours.is_capture(ours_move), ours.is_castling(ours_move), ours.is_en_passant(ours_move)) == kinds
            uci = rng.choice(legal)
            assert ours.gives_check(compat.Move.from_uci(uci)) == theirs.gives_check(chess.Move.from_uci(uci)), (theirs.fen(), uci)
            fen = ours.fen()
            ours.push_uci(uci)
            ours.pop()
            assert ours.fen() == fen
            if rng.random() < 0.5:
                san = theirs.san(chess.Move.from_uci(uci))
                assert ours.push_san(san).uci() == uci
            else:
                ours.push(compat.Move.from_uci(uci))
            theirs.push_uci(uci)
            assert ours.peek().uci() == uci
            assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
        assert state(ours) == state(theirs)
        assert ours.result() == theirs.result() or outcome_of(theirs) is None
        assert ours.root().fen() == theirs.root().fen()
        copied = ours.copy()
        assert copied.fen() == ours.fen() and copied.move_stack == ours.move_stack
        assert ours.copy(stack=False).move_stack == []
        while ours.move_stack:
            ours.pop()
            theirs.pop()
            assert ours.fen() == theirs.fen()
    return compared


@pytest.mark.parametrize("name", NAMES)
def test_random_games_agree_with_python_chess(name):
    assert play_games(name) > 300


@pytest.mark.parametrize("name", NAMES)
def test_class_attributes(name):
    theirs, ours = getattr(chess.variant, name), getattr(compat.variant, name)
    for attribute in ["aliases", "uci_variant", "xboard_variant", "starting_fen", "tbw_suffix", "tbz_suffix", "connected_kings", "one_king", "captures_compulsory"]:
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert ours().fen() == theirs().fen() == ours.starting_fen
    assert compat.variant.find_variant(name[: -len("Board")]) is ours


def test_find_variant_on_every_alias():
    for cls in chess.variant.VARIANTS:
        for alias in cls.aliases:
            if cls.__name__ in ("SuicideBoard", "GiveawayBoard"):
                with pytest.raises(ValueError):
                    compat.variant.find_variant(alias)
                continue
            ours = compat.variant.find_variant(alias)
            assert ours.__name__ == cls.__name__ and ours.uci_variant == cls.uci_variant
            assert compat.variant.find_variant(alias.upper()) is ours
    assert compat.variant.find_variant("standard") is compat.Board
    with pytest.raises(ValueError):
        compat.variant.find_variant("shogi")


def test_crazyhouse_drops_as_documented():
    board = compat.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Nf6", "c4"]:
        board.push_san(san)
    assert board.pockets[compat.WHITE].count(compat.PAWN) == 1 and len(board.pockets[compat.BLACK]) == 0
    board.push_san("Nxd5")
    drop = compat.Move.from_uci("P@e6")
    assert drop.drop == compat.PAWN and drop.to_square == compat.E6
    assert drop in board.legal_moves and board.san(drop) == "@e6"
    assert board.parse_san("P@e6") == drop == board.parse_san("@e6")
    board.push(drop)
    assert board.fen() == "rnbqkb1r/ppp1pppp/4P3/3n4/2P5/8/PP1P1PPP/RNBQKBNR[p] b KQkq - 1 4"
    assert str(board.pockets[compat.BLACK]) == "p" and repr(board.pockets[compat.BLACK]) == "CrazyhousePocket('p')"
    assert board.pop() == drop and compat.Move.from_uci("P@e1") not in board.legal_moves
    with pytest.raises(compat.IllegalMoveError):
        board.push(compat.Move.from_uci("Q@e6"))


def test_crazyhouse_en_passant_square_only_when_a_pawn_can_take():
    # A bishop in the pocket can drop on the square a pawn passed over: that is no en passant.
    for pocket in ["", "b", "bp", "q"]:
        board = compat.variant.CrazyhouseBoard(f"4k3/8/8/8/8/8/6P1/4K3[{pocket}] w - - 0 1")
        board.push_san("g4")
        assert board.fen() == f"4k3/8/8/8/6P1/8/8/4K3[{pocket}] b - - 0 1"
        assert board.fen() == chess.variant.CrazyhouseBoard(board.fen()).fen()


def test_crazyhouse_pocket_as_python_chess():
    for symbols in ["", "p", "qqrbnpp", "nbp"]:
        theirs, ours = chess.variant.CrazyhousePocket(symbols), compat.variant.CrazyhousePocket(symbols)
        theirs.add(chess.KNIGHT)
        ours.add(chess.KNIGHT)
        assert (str(ours), repr(ours), len(ours)) == (str(theirs), repr(theirs), len(theirs))
        theirs.remove(chess.KNIGHT)
        ours.remove(chess.KNIGHT)
        assert str(ours.copy()) == str(theirs.copy())
        ours.reset()
        assert len(ours) == 0
    with pytest.raises(ValueError):
        compat.variant.CrazyhousePocket().remove(chess.QUEEN)


def test_pockets_and_checks_changed_through_the_board_as_python_chess():
    pairs = [(chess.variant.CrazyhouseBoard(), compat.variant.CrazyhouseBoard())]
    for board in pairs[0]:
        board.push_san("e4")
        pocket = board.pockets[chess.WHITE]
        pocket.add(chess.QUEEN)
        board.pockets[chess.BLACK].add(chess.KNIGHT)
        board.pockets[chess.BLACK].add(chess.PAWN)
        board.pockets[chess.BLACK].remove(chess.PAWN)
        board.push_san("N@e5")
        assert str(pocket) == "q"  # the board's pocket, as it is now
    theirs, ours = pairs[0]
    assert ours.fen() == theirs.fen()
    assert [m.uci() for m in ours.move_stack] == ["e2e4", "N@e5"]
    assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves)
    theirs, ours = chess.variant.ThreeCheckBoard(), compat.variant.ThreeCheckBoard()
    for board in (theirs, ours):
        board.remaining_checks[chess.WHITE] = 1
        board.push_san("e4")
    assert ours.fen() == theirs.fen() and ours.remaining_checks == theirs.remaining_checks == [3, 1]


def test_three_check_counters():
    board = compat.variant.ThreeCheckBoard("rnbqkbnr/ppp1pppp/3p4/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2")
    assert board.remaining_checks == [3, 1]
    assert board.san(board.parse_san("Bb5+")) == "Bb5#"
    board.push_san("Bb5+")
    assert board.fen() == "rnbqkbnr/ppp1pppp/3p4/1B6/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0+3 1 2"
    assert board.is_variant_loss() and board.is_game_over()
    assert board.outcome() == compat.Outcome(compat.Termination.VARIANT_LOSS, compat.WHITE)
    assert board.result() == "1-0"
    assert board.epd() == "rnbqkbnr/ppp1pppp/3p4/1B6/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 0+3"


def test_variant_endings_as_documented():
    koth = compat.variant.KingOfTheHillBoard("4k3/8/8/8/8/4K3/8/8 w - - 0 1")
    koth.push_san("Ke4")
    assert koth.is_variant_loss() and koth.outcome().termination == compat.Termination.VARIANT_LOSS
    racing = compat.variant.RacingKingsBoard("8/k4K2/8/8/8/8/8/8 w - - 0 1")
    assert racing.push_san("Kf8").uci() == "f7f8"
    assert not racing.is_game_over()  # Black may still reach the eighth rank
    racing.push_san("Kb8")
    assert racing.is_variant_draw() and racing.outcome() == compat.Outcome(compat.Termination.VARIANT_DRAW, None)
    racing = compat.variant.RacingKingsBoard("8/5K2/8/8/8/8/k7/8 w - - 0 1")
    racing.push_san("Kf8")
    assert racing.outcome() == compat.Outcome(compat.Termination.VARIANT_LOSS, compat.WHITE)


def test_xboard_moves_as_python_chess():
    for name in NAMES:
        theirs, ours = getattr(chess.variant, name)(), getattr(compat.variant, name)()
        for text in ["e2e4", "Nf3", "Ng1f3", "a2a3", "Ke2"]:
            try:
                expected = theirs.parse_xboard(text).uci()
            except ValueError:
                with pytest.raises(ValueError):
                    ours.parse_xboard(text)
                continue
            assert ours.parse_xboard(text).uci() == expected, (name, text)
        san = theirs.san(next(iter(theirs.legal_moves)))
        assert ours.push_xboard(san).uci() == theirs.push_xboard(san).uci()


def test_errors_as_python_chess():
    board = compat.variant.AtomicBoard()
    with pytest.raises(ValueError):
        compat.variant.AtomicBoard("not a fen")
    with pytest.raises(compat.IllegalMoveError):
        board.parse_san("Ke2")
    with pytest.raises(compat.InvalidMoveError):
        board.parse_uci("e2")
    with pytest.raises(compat.IllegalMoveError):
        board.push(compat.Move.from_uci("e2e5"))
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(ValueError):
        compat.variant.HordeBoard(chess960=True)


@pytest.mark.parametrize("name", NAMES)
def test_pgn_of_a_variant_game_as_python_chess_writes_it(name):
    rng = random.Random(SEEDS[name] + 100)
    theirs, ours = getattr(chess.variant, name)(), getattr(compat.variant, name)()
    for _ in range(40):
        legal = sorted(m.uci() for m in theirs.legal_moves)
        if not legal:
            break
        uci = rng.choice(legal)
        theirs.push_uci(uci)
        ours.push_uci(uci)
    expected = str(chess.pgn.Game.from_board(theirs))
    game = compat.pgn.Game.from_board(ours)
    assert str(game) == expected
    assert game.headers["Variant"] == getattr(compat.variant, name).aliases[0]
    assert type(game.board()) is type(ours)
    assert game.end().board().fen() == ours.fen()


def operations_of(ops):
    """EPD operations as comparable values: moves as UCI."""
    def value(v):
        if isinstance(v, list):
            return [m.uci() for m in v]
        return v.uci() if hasattr(v, "uci") else v

    return {opcode: value(v) for opcode, v in ops.items()}


@pytest.mark.parametrize("name", NAMES)
def test_set_epd_and_from_epd_as_python_chess(name):
    """python-chess's EPD lines of random games' positions (bm, am, pv with drops, clocks, a
    comment) read by both: the same position and operations; set_epd clears the move stack."""
    rng = random.Random(SEEDS[name])
    ours_cls, theirs_cls = getattr(compat.variant, name), getattr(chess.variant, name)
    lines = 0
    for _ in range(3):
        theirs = theirs_cls()
        for ply in range(60):
            if theirs.is_game_over():
                break
            moves = sorted(theirs.legal_moves, key=chess.Move.uci)
            best = rng.choice(moves)
            after = theirs.copy(stack=False)
            after.push(best)
            pv = [best] + ([] if after.is_game_over() else [rng.choice(sorted(after.legal_moves, key=chess.Move.uci))])
            ops = {"bm": best, "am": moves[0], "pv": pv, "hmvc": theirs.halfmove_clock, "fmvn": theirs.fullmove_number, "c0": f"ply {ply}"}
            # python-chess's crazyhouse board writes no operations: its own writer adds them.
            line = theirs.epd() + " " + theirs._epd_operations(ops)
            expected_board, expected = theirs_cls.from_epd(line)
            board, got = ours_cls.from_epd(line)
            assert board.fen() == expected_board.fen(), line
            assert operations_of(got) == operations_of(expected), line
            board.push(board.parse_uci(best.uci()))
            assert board.set_epd(line) == got and board.move_stack == [] and board.fen() == expected_board.fen()
            lines += 1
            theirs.push(rng.choice(moves))
    assert lines >= 20


def test_set_epd_forms_and_errors():
    zh = compat.variant.CrazyhouseBoard()
    line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Qp w KQkq - bm Q@e2;"
    assert operations_of(zh.set_epd(line)) == operations_of(chess.variant.CrazyhouseBoard().set_epd(line)) == {"bm": ["Q@e2"]}
    assert zh.fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] w KQkq - 0 1"
    assert operations_of(zh.set_epd("4k3/8/8/8/8/8/8/4K3[] w - -")) == {}
    three = compat.variant.ThreeCheckBoard()
    assert three.set_epd("4k3/8/8/8/8/8/8/4K2R w K - 1+2") == {} and three.remaining_checks == [2, 1]
    # Without the counter field python-chess misreads an opcode as the counter; here it is 3+3.
    assert operations_of(three.set_epd("4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+;")) == {"bm": ["h1h8"]}
    assert three.remaining_checks == [3, 3]
    # Refused as the FEN reader refuses them (python-chess takes a fourth check and a king in
    # the pocket, as in its FENs), and as python-chess refuses them.
    for board, bad, refused_by_both in [
        (three, "4k3/8/8/8/8/8/8/4K2R w K - 4+0", False),
        (zh, "4k3/8/8/8/8/8/8/4K3[K] w - -", False),
        (zh, "4k3/8/8/8/8/8/8/4K3[] w - - bm N@e2;", True),
        (compat.variant.AtomicBoard(), "4k3/8/8/8/8/8/8/4K3[Q] w - -", True),
    ]:
        with pytest.raises(ValueError):
            board.set_epd(bad)
        if refused_by_both:
            with pytest.raises(ValueError):
                getattr(chess.variant, type(board).__name__)().set_epd(bad)


def test_variant_boards_are_drawn_by_chess_svg():
    board = compat.variant.ThreeCheckBoard("4k2R/8/8/8/8/8/8/4K3 b - - 1+3 0 1")
    pos = chesscore.variant.VariantPosition.from_fen(chesscore.variant.Variant.THREE_CHECK, board.fen())
    assert chesscore.svg.board(board) == chesscore.svg.board(pos)
    assert board._repr_svg_() == chesscore.svg.board(pos, check="e8")
    assert 'chess:checks="w" chess:remaining="1"' in board._repr_svg_()


def test_doc_examples():
    failed, attempted = doctest.testmod(compat.variant)
    assert attempted > 0 and failed == 0


# -- the queries python-chess's boards answer besides legal moves (pseudo-legal moves, checkers,
# pins, irreversible moves, the move-count rules, find_move, lan, mirror), and editing.

QUERY_GAMES, QUERY_PLIES = 4, 80


def ucis(moves):
    return sorted(m.uci() for m in moves)


def queries(board):
    """python-chess's answers to the questions beyond legal moves, either library's board."""
    facts = {
        "pseudo": ucis(board.generate_pseudo_legal_moves()),
        "pseudo_view": (ucis(board.pseudo_legal_moves), board.pseudo_legal_moves.count()),
        "pseudo_masked": ucis(board.generate_pseudo_legal_moves(chess.BB_RANK_2 | chess.BB_FILE_E, chess.BB_CENTER | chess.BB_RANK_4)),
        "captures": (ucis(board.generate_pseudo_legal_captures()), ucis(board.generate_legal_captures())),
        "ep": (ucis(board.generate_pseudo_legal_ep()), ucis(board.generate_legal_ep()), board.has_pseudo_legal_en_passant(), board.has_legal_en_passant()),
        "castling": ucis(board.generate_castling_moves()),
        "castling_sides": [(f(True), f(False)) for f in (board.has_kingside_castling_rights, board.has_queenside_castling_rights)],
        "checkers": (board.checkers_mask(), list(board.checkers())),
        "pins": [(board.pin_mask(color, sq), board.is_pinned(color, sq)) for color in (True, False) for sq in chess.SQUARES if board.piece_at(sq)],
        "rules": (board.is_fifty_moves(), board.is_seventyfive_moves(), board.can_claim_fifty_moves()),
        "null_irreversible": board.is_irreversible(chess.Move.null()),
        "status": (int(board.status()), board.is_valid()),
        "fens": [board.fen(shredder=True), board.fen(en_passant="fen"), board.fen(en_passant="xfen", promoted=False), board.shredder_fen(), board.castling_shredder_fen()],
        "chess960_castling": board.has_chess960_castling_rights(),
    }
    if hasattr(board, "pockets"):
        facts["drops"] = (ucis(board.generate_pseudo_legal_drops()), ucis(board.generate_pseudo_legal_drops(chess.BB_RANK_4)))
    return facts


def per_move(board, move):
    return (board.is_irreversible(move), board.lan(move), board.find_move(move.from_square, move.to_square, move.promotion).uci() if not move.drop else None)


def mirror_fen(board):
    try:
        return board.mirror().fen()
    except ValueError:
        return None


@pytest.mark.parametrize("name", NAMES)
def test_queries_agree_with_python_chess_in_random_games(name):
    rng = random.Random(SEEDS[name] + 200)
    theirs_cls, ours_cls = getattr(chess.variant, name), getattr(compat.variant, name)
    compared = 0
    for _ in range(QUERY_GAMES):
        theirs, ours = theirs_cls(), ours_cls()
        for _ in range(QUERY_PLIES):
            fen = theirs.fen()
            assert queries(ours) == queries(theirs), fen
            legal = sorted(theirs.legal_moves, key=chess.Move.uci)
            for move in legal:
                assert per_move(ours, compat.Move.from_uci(move.uci())) == per_move(theirs, move), (fen, move.uci())
            # Every pseudo-legal move of python-chess's (drops too) is one here; nothing else is.
            pseudo = set(theirs.generate_pseudo_legal_moves())
            if hasattr(theirs, "pockets"):
                pseudo |= set(theirs.generate_pseudo_legal_drops())
            for move in pseudo:
                assert ours.is_pseudo_legal(compat.Move.from_uci(move.uci())), (fen, move.uci())
            for _ in range(20):
                move = chess.Move(rng.randrange(64), rng.randrange(64), rng.choice([None, None, chess.QUEEN, chess.KNIGHT]))
                ours_move = compat.Move(move.from_square, move.to_square, move.promotion)
                assert ours.is_pseudo_legal(ours_move) == theirs.is_pseudo_legal(move), (fen, move.uci())
            # python-chess's mirror, where it is a position of the variant (horde's is not).
            theirs_mirror = theirs.mirror()
            if theirs_mirror.is_valid():
                assert mirror_fen(ours) == theirs_mirror.fen(), fen
                assert ours.mirror().mirror() == ours
            elif name == "HordeBoard":
                assert mirror_fen(ours) is None
            compared += 1
            if not legal:
                break
            uci = rng.choice(legal).uci()
            theirs.push_uci(uci)
            ours.push_uci(uci)
    assert compared > 100


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("clock", [98, 99, 100, 149, 150])
def test_move_count_rules_agree_with_python_chess(name, clock):
    rng = random.Random(clock)
    theirs, ours = getattr(chess.variant, name)(), getattr(compat.variant, name)()
    for _ in range(30):
        legal = sorted(m.uci() for m in theirs.legal_moves)
        if not legal:
            break
        uci = rng.choice(legal)
        theirs.push_uci(uci)
        ours.push_uci(uci)
        theirs.halfmove_clock = clock
        ours.halfmove_clock = clock
        assert ours.halfmove_clock == clock and ours.fen() == theirs.fen()
        expected = (theirs.is_fifty_moves(), theirs.is_seventyfive_moves(), theirs.can_claim_fifty_moves())
        assert (ours.is_fifty_moves(), ours.is_seventyfive_moves(), ours.can_claim_fifty_moves()) == expected, theirs.fen()
        assert outcome_of(ours) == outcome_of(theirs), theirs.fen()


def edits(rng):
    """A random edit: its description, and a function doing it to either library's board
    (given the board and the module, chess or compat)."""
    sq, symbol = rng.randrange(64), rng.choice("PNBRQKpnbrqk")
    corners = [chess.BB_A1, chess.BB_H1, chess.BB_A8, chess.BB_H8]
    rights = sum(rng.sample(corners, rng.randrange(5)))
    squares = {s: rng.choice("PNBRQKpnbrqk") for s in rng.sample(range(8, 56), 3)}
    number = rng.randrange(1, 200)
    return rng.choice([
        (f"set_piece_at {sq} {symbol}", lambda b, m: b.set_piece_at(sq, m.Piece.from_symbol(symbol))),
        (f"remove_piece_at {sq}", lambda b, m: b.remove_piece_at(sq)),
        ("turn", lambda b, m: setattr(b, "turn", not b.turn)),
        (f"castling_rights {rights:#x}", lambda b, m: setattr(b, "castling_rights", rights)),
        (f"fullmove_number {number}", lambda b, m: setattr(b, "fullmove_number", number)),
        (f"set_piece_map + {squares}", lambda b, m: b.set_piece_map({**b.piece_map(), **{s: m.Piece.from_symbol(p) for s, p in squares.items()}})),
        (f"set_board_fen {symbol}", lambda b, m: b.set_board_fen(b.board_fen().replace("8", "7" + symbol, 1))),
    ])


def python_chess_valid(board):
    """python-chess's is_valid, judged afresh (with a move stack it keeps castling rights set by
    hand unchecked), less the boards lichess's rules, and so the library, refuse: castling in
    antichess, a horde without exactly one black king."""
    if isinstance(board, chess.variant.AntichessBoard) and board.castling_rights:
        return False
    if isinstance(board, chess.variant.HordeBoard) and len(board.pieces(chess.KING, chess.BLACK)) != 1:
        return False
    return board.copy(stack=False).is_valid()


@pytest.mark.parametrize("name", NAMES)
def test_editing_then_querying_as_python_chess(name):
    """An edit that leaves a valid position of the variant (python-chess's status) gives the
    same board here, with the same answers; an edit the library refuses raises ValueError and
    leaves the board as it was, and python-chess calls that board invalid."""
    rng = random.Random(SEEDS[name] + 300)
    theirs_cls, ours_cls = getattr(chess.variant, name), getattr(compat.variant, name)
    applied = refused = 0
    for _ in range(150):
        theirs, ours = theirs_cls(), ours_cls()
        for _ in range(rng.randrange(12)):
            legal = sorted(m.uci() for m in theirs.legal_moves)
            if not legal:
                break
            uci = rng.choice(legal)
            theirs.push_uci(uci)
            ours.push_uci(uci)
        label, edit = edits(rng)
        before, stack = ours.fen(), list(ours.move_stack)
        edit(theirs, chess)
        try:
            edit(ours, compat)
        except ValueError:
            refused += 1
            assert not python_chess_valid(theirs), (before, label)
            assert ours.fen() == before and ours.move_stack == stack
            continue
        assert ours.move_stack == stack
        # python-chess's flags, but for castling rights and en passant squares that cannot
        # stand, which python-chess keeps and flags and the library drops on reading.
        kept = ~(chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE)
        assert int(ours.status()) == int(theirs.copy(stack=False).status()) & kept, (before, label)
        assert ours.is_valid() == (ours.status() == chess.STATUS_VALID)
        if not python_chess_valid(theirs):
            continue
        applied += 1
        assert ours.fen() == theirs.fen(), (before, label)
        assert state(ours) == state(theirs), (before, label)
        assert queries(ours) == queries(theirs), (before, label)
        assert ucis(ours.legal_moves) == ucis(theirs.legal_moves), (before, label)
    # (antichess refuses hardly any board: any number of kings, no castling)
    assert applied > 20 and (refused > 5 or name == "AntichessBoard")


@pytest.mark.parametrize("name", NAMES)
def test_hostile_pushes_leave_the_board_unchanged(name):
    """Moves that are not legal (pseudo-legal ones included: compat plays only legal moves),
    garbage and pops past the start raise, and the board is as it was; pushes then pops of
    legal moves restore it."""
    rng = random.Random(SEEDS[name] + 400)
    ours, theirs = getattr(compat.variant, name)(), getattr(chess.variant, name)()
    for _ in range(40):
        fen, stack = ours.fen(), list(ours.move_stack)
        pseudo_only = [m for m in theirs.generate_pseudo_legal_moves() if not theirs.is_legal(m)]
        for move in pseudo_only[:5] + [chess.Move(rng.randrange(64), rng.randrange(64)) for _ in range(5)]:
            if theirs.is_legal(move):
                continue
            ours_move = compat.Move(move.from_square, move.to_square, move.promotion, move.drop)
            with pytest.raises(compat.IllegalMoveError):
                ours.push(ours_move)
            assert not ours.is_legal(ours_move) and ours_move not in ours.legal_moves
            assert ours.is_irreversible(ours_move) is False
            assert ours.fen() == fen and ours.move_stack == stack
        for text in ["", "Qxz9", "P@", "@@", "e2e4e6", "O-O-O-O", "\x00"]:
            with pytest.raises(ValueError):
                ours.push_san(text)
            assert ours.fen() == fen
        with pytest.raises(compat.IllegalMoveError):
            ours.find_move(chess.A1, chess.A1)
        legal = sorted(m.uci() for m in theirs.legal_moves)
        if not legal:
            break
        uci = rng.choice(legal)
        ours.push_uci(uci)
        ours.pop()
        assert ours.fen() == fen
        ours.push_uci(uci)
        theirs.push_uci(uci)
    while ours.move_stack:
        ours.pop()
    with pytest.raises(IndexError):
        ours.pop()
    assert ours.fen() == ours.starting_fen

NAMES_FOR_REPETITION = ["atomic", "antichess", "crazyhouse", "kingofthehill", "threecheck", "horde", "racingkings"]


@pytest.mark.parametrize("name", NAMES_FOR_REPETITION)
def test_repetitions_and_claimed_outcomes_as_python_chess(name):
    """Shuffling games (moves that go back where they came from, mostly): repetitions, claims
    and outcomes with and without claims, python-chess against compat, the history kept through
    pushes, pops and copies."""
    rng = random.Random(f"repetitions {name}")
    theirs_cls, ours_cls = chess.variant.find_variant(name), compat.variant.find_variant(name)
    repeated = 0
    for _ in range(6):
        theirs, ours = theirs_cls(), ours_cls()
        for ply in range(60):
            move = shuffling_move(theirs, rng)
            if move is None:
                break
            theirs.push(move)
            ours.push(compat.Move.from_uci(move.uci()))
            if ply % 7 == 3:  # a pop and a push again keep the history
                ours.pop()
                ours.push(compat.Move.from_uci(move.uci()))
            if ply % 11 == 5:
                ours = ours.copy()
            for count in (2, 3, 5):
                assert ours.is_repetition(count) == theirs.is_repetition(count), (name, theirs.fen(), count)
            assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition()
            assert ours.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition()
            assert ours.can_claim_draw() == theirs.can_claim_draw()
            for claim in (False, True):
                expected, got = theirs.outcome(claim_draw=claim), ours.outcome(claim_draw=claim)
                assert (got is None) == (expected is None), (name, theirs.fen(), claim)
                if got is not None:
                    assert (got.termination.name, got.winner) == (expected.termination.name, expected.winner)
                assert ours.result(claim_draw=claim) == theirs.result(claim_draw=claim)
            repeated += theirs.is_repetition(2)
    assert repeated >= 20
    # A board edited after its moves keeps no history: the position alone counts.
    board = ours_cls()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] if name not in ("horde", "racingkings") else []:
        board.push_uci(uci)
    board.halfmove_clock = 0
    assert not board.is_repetition(2)
