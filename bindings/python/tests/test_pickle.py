"""Pickling, as python-chess programs do it (multiprocessing sends boards to its workers, caches
keep them on disk): a board in every state comes back with its position, move stack and history,
independent of the original. A pickled copy that shared the original's handle into the library
would free it twice: each case runs in a Python of its own (``bounded``), so that such a crash
fails its test instead of the suite."""

from test_hostile_files import bounded


def test_compat_boards_in_every_state_pickle_as_python_chess():
    out = bounded(
        """
        import pickle
        import chess, chess.variant
        import chesscore.compat as compat, chesscore.compat.variant

        class MyBoard(compat.Board):
            def hello(self):
                return "hello"

        def boards(lib, variant):
            valid = lib.Board()
            for san in ("e4", "e5", "Nf3"):
                valid.push_san(san)
            yield "valid, three moves", valid
            edited = lib.Board()
            edited.push_san("d4")
            edited.turn = lib.WHITE  # an edit between moves: pop goes back past it
            edited.push_san("d5")
            yield "edited between moves", edited
            just_edited = lib.Board()
            just_edited.push_san("e4")
            just_edited.halfmove_clock = 7  # pickled before anything settles it
            yield "just edited", just_edited
            invalid = lib.Board("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")
            invalid.push(lib.Move.from_uci("a1a2"))
            yield "two white kings, a move played", invalid
            yield "Chess960", lib.Board.from_chess960_pos(123)
            yield "BaseBoard", lib.BaseBoard("8/8/8/3k4/8/8/8/4K3")
            yield "empty", lib.Board.empty()
            atomic = variant.AtomicBoard()
            atomic.push_san("e4")
            yield "atomic", atomic
            house = variant.CrazyhouseBoard("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qn] w KQkq - 2 3")
            house.push_san("Q@d5")
            yield "crazyhouse with pockets", house

        theirs = list(boards(chess, chess.variant))
        ours = list(boards(compat, compat.variant))
        ours.append(("subclass", MyBoard()))
        theirs.append(("subclass", chess.Board()))
        for (name, mine), (_, reference) in zip(ours, theirs):
            copy = pickle.loads(pickle.dumps(mine))
            expected = pickle.loads(pickle.dumps(reference))
            assert type(copy).__name__ == type(mine).__name__, name
            fen = (lambda b: b.fen()) if hasattr(expected, "fen") else (lambda b: b.board_fen())
            assert fen(copy) == fen(mine) == fen(expected), name
            if not hasattr(expected, "move_stack"):
                continue
            assert [m.uci() for m in copy.move_stack] == [m.uci() for m in expected.move_stack], name
            assert copy.is_valid() == expected.is_valid(), name
            # The copy is its own: a move on it leaves the original as it was.
            if copy.is_valid() and any(copy.legal_moves):
                copy.push(next(iter(copy.legal_moves)))
                assert fen(mine) == fen(expected), name
                copy.pop()
            while expected.move_stack:
                assert copy.pop().uci() == expected.pop().uci(), name
                assert fen(copy) == fen(expected), name
        assert type(pickle.loads(pickle.dumps(ours[-1][1]))) is MyBoard
        del ours, theirs
        import gc
        gc.collect()
        print("compared")
        """
    )
    assert out.strip() == "compared"


def test_boards_go_to_worker_processes_and_back():
    out = bounded(
        """
        import concurrent.futures, multiprocessing, operator
        import chesscore.compat as chess

        boards = []
        for i in range(8):
            board = chess.Board()
            for _ in range(i):
                board.push(sorted(board.legal_moves, key=str)[0])
            boards.append(board)
        # Workers of their own (spawned, not forked): each board crosses as its pickle.
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            copies = list(pool.map(operator.methodcaller("copy"), boards))
            mirrors = list(pool.map(operator.methodcaller("mirror"), boards))
        for board, copy, mirror in zip(boards, copies, mirrors):
            assert copy.move_stack == board.move_stack and copy.fen() == board.fen()
            assert mirror.fen() == board.mirror().fen()
            while copy.move_stack:
                copy.pop()
            assert copy.fen() == chess.STARTING_FEN
        print("sent and back")
        """,
        timeout=120,
    )
    assert out.strip() == "sent and back"


def test_library_positions_pickle_and_handles_refuse():
    out = bounded(
        """
        import pickle
        import chesscore

        for variant in chesscore.Variant:
            position = chesscore.VariantPosition(variant)
            assert pickle.loads(pickle.dumps(position)) == position
        position = chesscore.Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 4 9")
        assert pickle.loads(pickle.dumps(position)) == position
        # A game is a handle into the library: refused, never copied.
        try:
            pickle.dumps(chesscore.Game())
        except TypeError as error:
            assert "pgn()" in str(error)
            print("refused")
        """
    )
    assert out.strip() == "refused"


def test_objects_owning_an_open_resource_refuse_copies_and_pickles(tmp_path):
    """A copy of a book reader used to outlive the reader's handle (a crash on its next lookup);
    a copy of a tablebase freed the tables twice. Both, and pickles, are refused."""
    import copy
    import pickle

    import pytest

    import chesscore.compat.polyglot
    import chesscore.polyglot
    import chesscore.tablebase
    from conftest import data_dir

    book = data_dir() / "polyglot" / "dev.bin"
    owners = [chesscore.polyglot.open_reader(book), chesscore.tablebase.Tablebase(str(tmp_path))]  # one path: one directory
    for owner in owners:
        for make in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot be copied or pickled"):
                make(owner)
    assert owners[1].max_pieces() == 0
    # compat's reader copies shallowly, as python-chess's: the copy shares the book and outlives
    # the original; a deep copy or a pickle would need the book's handle, and is refused.
    board = chesscore.compat.Board()
    reader = chesscore.compat.polyglot.open_reader(book)
    shallow = copy.copy(reader)
    expected = [entry.move for entry in reader.find_all(board)]
    del reader
    assert expected and [entry.move for entry in shallow.find_all(board)] == expected
    for make in (copy.deepcopy, pickle.dumps):
        with pytest.raises(TypeError, match="cannot be copied or pickled"):
            make(shallow)
