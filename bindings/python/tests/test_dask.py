"""The Dask example (bindings/python/examples/dask/dask_pgn.py) on a local cluster of two worker processes: its
totals per opening, shards read by both workers, against one process reading the same files
whole, and against python-chess."""

import gzip
import sys

import chess.pgn
import pytest

import chesscore
from conftest import ROOT, data_dir, not_run, shared_dir


def _broken_pgn_games():
    """The good and the broken games of tests/data/pgn/broken.pgn."""
    games = list(chesscore.read_pgn(data_dir() / "pgn" / "broken.pgn"))
    broken = sum(g.error is not None for g in games)
    return len(games) - broken, broken


@pytest.fixture(scope="module")
def example():
    try:
        import distributed  # noqa: F401
    except ImportError:
        not_run("python", "python: the Dask example", "dask[distributed] is not installed (scripts/test-requirements.txt)")
    # The workers, started after this, import the example by name as well.
    folder = str(ROOT / "bindings" / "python" / "examples" / "dask")
    sys.path.insert(0, folder)
    try:
        import dask_pgn

        yield dask_pgn
    finally:
        sys.path.remove(folder)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    shared = shared_dir("python: the Dask example") / "pgn"
    lichess, twic = shared / "lichess_db_100k.pgn", shared / "twic1599_100k.pgn"
    tmp = tmp_path_factory.mktemp("dask")
    big = tmp / "big.pgn"  # real games and broken ones, to be cut into shards
    big.write_bytes((lichess.read_bytes() + b"\n" + (data_dir() / "pgn" / "broken.pgn").read_bytes() + b"\n") * 3)
    compressed = tmp / "twic.pgn.gz"  # one shard, decompressed by its worker
    compressed.write_bytes(gzip.compress(twic.read_bytes()))
    return [str(big), str(compressed), str(lichess)]


@pytest.fixture(scope="module")
def cluster(example):
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster


def test_two_workers_add_up_the_shards_as_one_process_reads_the_files(example, files, cluster):
    from distributed import Client, get_task_stream

    work = example.shards(files, 4)
    assert [path for path, _ in work] == [files[0]] * 4 + [files[1]] + [files[2]] * 4
    with Client(cluster) as client, get_task_stream(client) as stream:
        totals = example.opening_totals(client, work)
    assert len({task["worker"] for task in stream.data}) == 2  # both workers read shards
    direct = example.merge([example.read_shard((path, None)) for path in files])
    assert totals == direct
    good, broken = _broken_pgn_games()
    assert totals.broken == 3 * broken and sum(o.games for o in totals.openings.values()) == 3 * (47 + good) + 110 + 47
    assert totals.openings["Sicilian"].games > 10 and totals.openings["Sicilian"].average_rating > 2000


def test_the_totals_of_a_file_are_python_chess_s(example, files):
    lichess = files[2]
    ours = example.read_shard((lichess, None))
    theirs = {}
    with open(lichess, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            headers = game.headers
            opening = theirs.setdefault(headers.get("Opening", "?"), example.Opening())
            opening.games += 1
            opening.plies += sum(1 for _ in game.mainline_moves())
            white, black = headers.get("WhiteElo", ""), headers.get("BlackElo", "")
            if white.isdigit() and black.isdigit():
                opening.rated += 1
                opening.rating_sum += (int(white) + int(black)) // 2
    assert ours.openings == theirs and ours.broken == 0
    headers_only = example.read_shard((lichess, None), headers_only=True)
    assert {n: (o.games, o.rating_sum) for n, o in headers_only.openings.items()} == {
        n: (o.games, o.rating_sum) for n, o in theirs.items()
    }


def test_the_command_line_runs_on_a_scheduler_by_its_address(example, files, cluster, capsys):
    assert example.main(["--scheduler", cluster.scheduler_address, "--split", "3", "--top", "3", files[0]]) == 0
    out = capsys.readouterr().out.splitlines()
    good, broken = _broken_pgn_games()
    openings = len(example.read_shard((files[0], None)).openings)
    assert out[0] == f"{3 * (47 + good)} games ({3 * broken} broken) in 3 shards, {openings} openings"
    assert len(out) == 4
