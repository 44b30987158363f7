"""Games, average rating and average length per opening over PGN files with Dask: one task per
shard (a file, or a piece of whole games of a large file cut by ``chesscore.split_pgn``), each
reading its games with ``chesscore.read_pgn``, the counts of every shard added up at the end.

On this machine (a local cluster of worker processes):

    python3 bindings/python/examples/dask/dask_pgn.py --workers 2 --split 8 lichess_db_standard_rated_2024-01.pgn

On a cluster: start a scheduler on one machine and a worker on each (every machine with
chesscore installed, ``pip install bindings/python``, and the files at the same path, on a
shared file system), then point the example at the scheduler:

    dask scheduler                           # on one machine: prints tcp://HOST:8786
    dask worker tcp://HOST:8786              # on each machine
    python3 bindings/python/examples/dask/dask_pgn.py --scheduler tcp://HOST:8786 --split 64 /shared/pgn/*.pgn.zst

A compressed file (gzip, Zstandard: a lichess month) is one shard, which its worker
decompresses as it reads; ``--split`` cuts plain text files only.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import chesscore

if TYPE_CHECKING:
    from distributed import Client

# A shard: a file, and the byte range of its games to read (None: the whole file).
Shard = Tuple[str, Optional[Tuple[int, int]]]


@dataclass
class Opening:
    """What the games of one opening add up to."""

    games: int = 0
    rated: int = 0  # games with both players' ratings
    rating_sum: int = 0  # of the two players' mean rating, over the rated games
    plies: int = 0

    def add(self, other: Opening) -> None:
        self.games += other.games
        self.rated += other.rated
        self.rating_sum += other.rating_sum
        self.plies += other.plies

    @property
    def average_rating(self) -> Optional[float]:
        return self.rating_sum / self.rated if self.rated else None

    @property
    def average_plies(self) -> float:
        return self.plies / self.games if self.games else 0.0


@dataclass
class Totals:
    """The openings of a set of games (keyed by the Opening header, ``?`` without one), and how
    many games were broken (not counted in the openings)."""

    openings: Dict[str, Opening]
    broken: int = 0

    def add(self, other: Totals) -> None:
        for name, opening in other.openings.items():
            self.openings.setdefault(name, Opening()).add(opening)
        self.broken += other.broken


def shards(paths: Iterable[str], split: int) -> List[Shard]:
    """One shard per file, or up to ``split`` pieces of whole games per plain text file."""
    found: List[Shard] = []
    for path in paths:
        if split > 1:
            try:
                found.extend((path, piece) for piece in chesscore.split_pgn(path, split))
                continue
            except chesscore.InvalidArgumentError:  # compressed: read whole
                pass
        found.append((path, None))
    return found


def rating(headers: Dict[str, str], tag: str) -> Optional[int]:
    value = headers.get(tag, "")
    return int(value) if value.isdigit() else None


def read_shard(shard: Shard, headers_only: bool = False) -> Totals:
    """The task: reads the games of one shard (replaying every move unless ``headers_only``)."""
    path, piece = shard
    source: Union[str, bytes] = path
    if piece is not None:
        start, end = piece
        with open(path, "rb") as f:
            f.seek(start)
            source = f.read(end - start)
    totals = Totals({})
    for game in chesscore.read_pgn(source, headers_only=headers_only):
        if game.error is not None:
            totals.broken += 1
            continue
        headers = game.headers
        opening = totals.openings.setdefault(headers.get("Opening", "?"), Opening())
        opening.games += 1
        opening.plies += len(game)
        white, black = rating(headers, "WhiteElo"), rating(headers, "BlackElo")
        if white is not None and black is not None:
            opening.rated += 1
            opening.rating_sum += (white + black) // 2
    return totals


def merge(parts: Sequence[Totals]) -> Totals:
    totals = Totals({})
    for part in parts:
        totals.add(part)
    return totals


def opening_totals(client: Client, work: Sequence[Shard], headers_only: bool = False) -> Totals:
    """Reads the shards on ``client``'s cluster, one task each, and adds up their totals in one
    more task."""
    futures = client.map(read_shard, work, headers_only=headers_only, pure=False)
    totals: Totals = client.submit(merge, futures).result()
    return totals


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", help="PGN files (plain, gzip or Zstandard)")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler (tcp://HOST:8786)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of the local cluster (default 2)")
    parser.add_argument("--split", type=int, default=1, metavar="N", help="cut each plain file into N shards")
    parser.add_argument("--headers-only", action="store_true", help="read headers only, not the moves")
    parser.add_argument("--top", type=int, default=20, help="openings to print, most played first")
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    work = shards(args.files, args.split)
    if args.scheduler:
        with Client(args.scheduler) as client:  # type: ignore[no-untyped-call]
            totals = opening_totals(client, work, args.headers_only)
    else:
        local = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        with local as cluster, Client(cluster) as client:  # type: ignore[no-untyped-call]
            totals = opening_totals(client, work, args.headers_only)

    games = sum(o.games for o in totals.openings.values())
    print(f"{games} games ({totals.broken} broken) in {len(work)} shards, {len(totals.openings)} openings")
    ranked = sorted(totals.openings.items(), key=lambda item: (-item[1].games, item[0]))
    for name, opening in ranked[: args.top]:
        average = opening.average_rating
        shown = "-" if average is None else f"{average:.0f}"
        print(f"{opening.games:8d}  rating {shown:>5}  plies {opening.average_plies:5.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
