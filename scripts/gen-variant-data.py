#!/usr/bin/env python3
"""Generates the variant test data in core/tests/data/variant/ (committed; rerun only to rebuild it).

    target/venv/bin/python scripts/gen-variant-data.py [--jobs 2] [--report FILE] [--cache FILE]

Writes, for each lichess variant (atomic, antichess, crazyhouse, kingofthehill, threecheck, horde,
racingkings):

- `<variant>.perft`: positions from seeded random games, one a line, `<FEN> ;D1 n ;D2 n ;D3 n`
  (some lines add `;D4 n`). Every count comes from two oracles, python-chess 1.11.2 (recursion over
  legal_moves with bulk counting) and Fairy-Stockfish's pyffish 0.0.90 (legal_moves per node); a
  line is written only where both agree at every depth, every disagreement goes to the report.
- `<variant>.games`: 30 seeded random games (to the end or at most 150 plies), one JSON object a
  line, with python-chess's UCI, SAN, FEN, check and variant-end flag after every ply, the outcome
  and insufficient material of the final position.
- `README.md`: the formats, the figures of this run and the disagreements.

Took 36 minutes on two cores shared with other builds (about 390,000 pyffish calls: pyffish
rebuilds its position on every call, about 2 ms), so the positions are chosen with small depth-3
trees and depth 4 is computed for the cheapest. The counts are cached (--cache): a rerun that finds
them takes about 3 minutes. The output is deterministic (fixed seeds); the report (not committed)
lists the disagreements and the FENs pyffish writes differently.
"""

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path

import chess
import chess.variant
import pyffish

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "core" / "tests" / "data" / "variant"
SEED = 20261205
PYTHON_CHESS_VERSION = "1.11.2"
PYFFISH_VERSION = (0, 0, 90)

# Our name, python-chess's board class, pyffish's name.
VARIANTS = [
    ("atomic", chess.variant.AtomicBoard, "atomic"),
    ("antichess", chess.variant.AntichessBoard, "antichess"),
    ("crazyhouse", chess.variant.CrazyhouseBoard, "crazyhouse"),
    ("kingofthehill", chess.variant.KingOfTheHillBoard, "kingofthehill"),
    ("threecheck", chess.variant.ThreeCheckBoard, "3check"),
    ("horde", chess.variant.HordeBoard, "horde"),
    ("racingkings", chess.variant.RacingKingsBoard, "racingkings"),
]

POSITIONS = 520  # per variant; at least 500 must survive the two-oracle rule
DEPTH4_LINES = 24
CANDIDATE_GAMES = 260
CANDIDATE_PLY_LIMIT = 300
# pyffish calls (nodes above the leaves) allowed for one position's depth-3 tree: for positions
# of a feature, and for the rest. Depth 4 is computed for DEPTH4_LINES lines whose depth 3 has at
# most DEPTH4_LEAVES leaves (the cheapest others where too few have).
FEATURE_COST_CAP = 400
FILL_COST_CAP = 110
# Crazyhouse's drops make most positions dearer: more of them are needed to fill its suite.
FILL_COST_CAPS = {"crazyhouse": 700}
DEPTH4_LEAVES = 600
GAMES = 30
GAME_PLY_LIMIT = 150
GAMES_MAX_BYTES = 400_000


# ---------------------------------------------------------------- random play


def random_move(board, rng, style):
    """A legal move: uniform, or (style "captures") a capture when one exists most of the time,
    which brings games to their endings (few pieces, promotions, variant ends) sooner."""
    moves = list(board.legal_moves)
    if style == "captures" and rng.random() < 0.7:
        captures = [m for m in moves if board.is_capture(m)]
        if captures:
            return rng.choice(captures)
    return rng.choice(moves)


def candidate_positions(cls, rng):
    """Boards from random games: a sample of every game's plies plus its last few positions."""
    found = {}
    for game in range(CANDIDATE_GAMES):
        style = "uniform" if game % 2 else "captures"
        board = cls()
        history = []
        while board.outcome() is None and board.ply() < CANDIDATE_PLY_LIMIT:
            board.push(random_move(board, rng, style))
            history.append(board.copy(stack=False))
        for index, position in enumerate(history):
            if index >= len(history) - 6 or rng.random() < 0.12:
                found.setdefault(position_key(position), position)
    return list(found.values())


def position_key(board):
    """The FEN without the clocks: positions differing only there count as one."""
    return " ".join(board.fen().split()[:-2])


# ---------------------------------------------------------------- features


def features(name, board):
    """The kinds of interest a position belongs to (a position may have several)."""
    moves = list(board.legal_moves)
    kinds = set()
    if board.is_variant_end():
        kinds.add("variant_end")
    elif not moves:
        kinds.add("no_moves")
    if board.is_check():
        kinds.add("check")
    if board.has_legal_en_passant():
        kinds.add("en_passant")
    if any(m.promotion for m in moves):
        kinds.add("promotion")
    if board.castling_rights:
        kinds.add("castling_rights")
    if any(board.is_castling(m) for m in moves):
        kinds.add("castling_move")
    if chess.popcount(board.occupied) <= 10:
        kinds.add("few_pieces")
    if name == "crazyhouse":
        in_pockets = sum(len(board.pockets[color]) for color in chess.COLORS)
        if in_pockets >= 6:
            kinds.add("pockets_full")
        if in_pockets:
            kinds.add("pockets")
        if board.promoted:
            kinds.add("promoted")
        if any(m.drop for m in moves) and board.is_check():
            kinds.add("drop_in_check")
    if name == "threecheck" and min(board.remaining_checks) <= 1:
        kinds.add("last_check")
    if name == "kingofthehill":
        near = chess.BB_CENTER
        for square in chess.SquareSet(chess.BB_CENTER):
            near |= chess.BB_KING_ATTACKS[square]
        if any(board.king(color) is not None and chess.BB_SQUARES[board.king(color)] & near for color in chess.COLORS):
            kinds.add("near_hill")
    if name == "racingkings" and any(
        board.king(color) is not None and chess.square_rank(board.king(color)) >= 5 for color in chess.COLORS
    ):
        kinds.add("king_high")
    if name == "antichess" and any(board.is_capture(m) for m in moves):
        kinds.add("forced_capture")
    if name == "horde" and chess.popcount(board.occupied_co[chess.WHITE]) <= 10:
        kinds.add("few_white")
    if name == "atomic" and any(board.is_capture(m) for m in moves):
        kinds.add("explosion")
    return kinds


# (kind, positions wanted, cost cap); kinds a variant never has simply find nothing.
QUOTAS = [
    ("variant_end", 8, FEATURE_COST_CAP),
    ("no_moves", 4, FEATURE_COST_CAP),
    ("check", 60, FEATURE_COST_CAP),
    ("en_passant", 30, FEATURE_COST_CAP),
    ("promotion", 40, FEATURE_COST_CAP),
    ("castling_move", 20, FEATURE_COST_CAP),
    ("castling_rights", 30, FEATURE_COST_CAP),
    ("few_pieces", 60, FEATURE_COST_CAP),
    ("pockets_full", 3, 2500),
    ("pockets", 50, 800),
    ("promoted", 20, 800),
    ("drop_in_check", 20, 800),
    ("last_check", 30, FEATURE_COST_CAP),
    ("near_hill", 30, FEATURE_COST_CAP),
    ("king_high", 30, FEATURE_COST_CAP),
    ("forced_capture", 40, FEATURE_COST_CAP),
    ("few_white", 30, FEATURE_COST_CAP),
    ("explosion", 40, FEATURE_COST_CAP),
]
PLY_BUCKETS = [(0, 10), (10, 30), (30, 60), (60, 100), (100, CANDIDATE_PLY_LIMIT + 1)]


def pyffish_cost(board, limit):
    """pyffish calls for the depth-3 tree (the root, its children and grandchildren), or limit + 1
    as soon as it is over limit."""
    cost = 1
    for move in list(board.legal_moves):
        board.push(move)
        cost += 1 + board.legal_moves.count()
        board.pop()
        if cost > limit:
            return limit + 1
    return cost


def select_positions(name, candidates, rng):
    """POSITIONS boards with their costs: the QUOTAS first, then the rest spread over PLY_BUCKETS
    (games already over only through their quotas)."""
    kinds = [features(name, board) for board in candidates]
    fill_cap = FILL_COST_CAPS.get(name, FILL_COST_CAP)
    limit = max([fill_cap] + [cap for _, _, cap in QUOTAS])
    costs = {}

    def cost(index):
        if index not in costs:
            costs[index] = pyffish_cost(candidates[index], limit)
        return costs[index]

    chosen, taken = [], set()
    for kind, wanted, cap in QUOTAS:
        pool = [i for i in range(len(candidates)) if kind in kinds[i] and i not in taken]
        rng.shuffle(pool)
        got = 0
        for index in pool:
            if got == wanted or len(chosen) == POSITIONS:
                break
            if cost(index) <= cap:
                chosen.append(index)
                taken.add(index)
                got += 1
    buckets = [
        [
            i
            for i in range(len(candidates))
            if low <= candidates[i].ply() < high and i not in taken and not kinds[i] & {"variant_end", "no_moves"}
        ]
        for low, high in PLY_BUCKETS
    ]
    for bucket in buckets:
        rng.shuffle(bucket)
    while len(chosen) < POSITIONS and any(buckets):
        for bucket in buckets:
            while bucket and len(chosen) < POSITIONS:
                index = bucket.pop()
                if cost(index) <= fill_cap:
                    chosen.append(index)
                    break
    return [(candidates[i], costs[i]) for i in chosen]


# ---------------------------------------------------------------- the two oracles


def python_chess_perft(board, depth):
    """Node counts at depths 1..depth (bulk counting at the last ply)."""
    counts = [0] * depth

    def walk(level):
        moves = list(board.legal_moves)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                board.push(move)
                walk(level + 1)
                board.pop()

    walk(0)
    return counts


def pyffish_perft(variant, fen, depth):
    """Node counts at depths 1..depth; pyffish replays each node's move path from the root."""
    counts = [0] * depth

    def walk(path, level):
        moves = pyffish.legal_moves(variant, fen, path)
        counts[level] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk(path + [move], level + 1)

    walk([], 0)
    return counts


def pyffish_fen(fen):
    """pyffish reads python-chess's variant FENs as they are (pockets `[..]`, `~`, `3+3`)."""
    return fen


def both_perfts(task):
    name, fen, depth = task
    cls, ffname = VARIANT_CLASSES[name]
    return name, fen, depth, python_chess_perft(cls(fen), depth), pyffish_perft(ffname, pyffish_fen(fen), depth)


VARIANT_CLASSES = {name: (cls, ffname) for name, cls, ffname in VARIANTS}


# ---------------------------------------------------------------- games


def game_record(cls, rng, style, ply_limit):
    board = cls()
    record = {"start": board.fen(), "plies": []}
    while board.outcome() is None and board.ply() < ply_limit:
        move = random_move(board, rng, style)
        san = board.san(move)
        board.push(move)
        record["plies"].append([move.uci(), san, board.fen(), board.is_check(), board.is_variant_end()])
    outcome = board.outcome()
    record["outcome"] = (
        None
        if outcome is None
        else {
            "termination": outcome.termination.name,
            "winner": None if outcome.winner is None else ("white" if outcome.winner else "black"),
        }
    )
    record["insufficient"] = [
        board.has_insufficient_material(chess.WHITE),
        board.has_insufficient_material(chess.BLACK),
    ]
    return record


def games_text(name, cls):
    """GAMES games as JSON lines, the ply limit lowered until the file fits GAMES_MAX_BYTES."""
    ply_limit = GAME_PLY_LIMIT
    while True:
        rng = random.Random(f"{SEED}-{name}-games")
        lines = [
            json.dumps(game_record(cls, rng, "captures" if g % 2 else "uniform", ply_limit), separators=(",", ":"))
            for g in range(GAMES)
        ]
        text = "\n".join(lines) + "\n"
        if len(text.encode()) <= GAMES_MAX_BYTES:
            return text, ply_limit
        ply_limit -= 10


# ---------------------------------------------------------------- main


def perft_line(fen, counts):
    return fen + "".join(f" ;D{d} {n}" for d, n in enumerate(counts, 1))


def run_tasks(pool, tasks, label, started, cache):
    """Results of both_perfts over tasks, keyed by (variant, fen), with progress lines. Each
    result is appended to the cache file, and tasks found there are not computed again."""
    results = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            name, fen, depth, ours, theirs = json.loads(line)
            results[(name, fen, depth)] = (ours, theirs)
    todo = sorted((t for t in tasks if tuple(t[:3]) not in results), key=lambda t: -t[3])  # costliest first
    print(f"  {label}: {len(tasks) - len(todo)} of {len(tasks)} from {cache}", flush=True)
    with cache.open("a") as out:
        for done, result in enumerate(pool.imap_unordered(both_perfts, [t[:3] for t in todo]), 1):
            name, fen, depth, ours, theirs = result
            results[(name, fen, depth)] = (ours, theirs)
            out.write(json.dumps(result) + "\n")
            out.flush()
            if done % 100 == 0 or done == len(todo):
                print(f"  {label}: {done}/{len(todo)} ({time.time() - started:.0f} s)", flush=True)
    keep = {tuple(t[:3]) for t in tasks}
    return {(name, fen): counts for (name, fen, depth), counts in results.items() if (name, fen, depth) in keep}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--report", type=Path, default=ROOT / "target" / "variant-data-report.txt")
    parser.add_argument(
        "--cache", type=Path, default=ROOT / "target" / "variant-data-cache.jsonl",
        help="counts computed so far (an interrupted run resumes from it)",
    )
    args = parser.parse_args()
    if chess.__version__ != PYTHON_CHESS_VERSION or pyffish.version() != PYFFISH_VERSION:
        sys.exit(f"needs python-chess {PYTHON_CHESS_VERSION} and pyffish {PYFFISH_VERSION}")
    started = time.time()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    report = []
    fen_forms = 0

    selected = {}
    tasks = []
    for name, cls, ffname in VARIANTS:
        rng = random.Random(f"{SEED}-{name}-positions")
        boards = select_positions(name, candidate_positions(cls, rng), rng)
        selected[name] = [board.fen() for board, _ in boards]
        cost = sum(c for _, c in boards)
        differ = [fen for fen in selected[name] if pyffish.get_fen(ffname, pyffish_fen(fen), []) != fen]
        fen_forms += len(differ)
        report += [f"{name}: pyffish.get_fen writes {fen} differently" for fen in differ]
        tasks += [(name, board.fen(), 3, c) for board, c in boards]
        print(f"{name}: {len(boards)} positions, about {cost} pyffish calls at depth 3 ({time.time() - started:.0f} s)",
              flush=True)

    with multiprocessing.Pool(args.jobs) as pool:
        depth3 = run_tasks(pool, tasks, "depth 3", started, args.cache)
        depth4_tasks = []
        for name, _, _ in VARIANTS:
            leaves = {f: ours[2] for f in selected[name] for ours, theirs in [depth3[(name, f)]] if ours == theirs}
            cheap = [f for f in leaves if 0 < leaves[f] <= DEPTH4_LEAVES]
            rng = random.Random(f"{SEED}-{name}-depth4")
            rng.shuffle(cheap)
            # Too few cheap ones: the next cheapest make up DEPTH4_LINES.
            dearer = sorted((f for f in leaves if leaves[f] > DEPTH4_LEAVES), key=lambda f: leaves[f])
            chosen = (cheap + dearer)[:DEPTH4_LINES]
            depth4_tasks += [(name, f, 4, leaves[f]) for f in chosen]
        depth4 = run_tasks(pool, depth4_tasks, "depth 4", started, args.cache)

    disagreements = []
    summary = []
    for name, cls, _ in VARIANTS:
        lines = []
        with_d4 = 0
        for fen in selected[name]:
            ours, theirs = depth4.get((name, fen), depth3[(name, fen)])
            if ours != theirs:
                depth = next(d for d in range(len(ours)) if ours[d] != theirs[d]) + 1
                disagreements.append(
                    f"{name}\t{fen}\tD{depth}\tpython-chess {ours[depth - 1]}\tpyffish {theirs[depth - 1]}"
                )
                if depth < 4:
                    continue
                ours = ours[:3]  # depth 4 is computed only where depth 3 agreed
            with_d4 += len(ours) == 4
            lines.append(perft_line(fen, ours))
        (OUT_DIR / f"{name}.perft").write_text("\n".join(lines) + "\n")
        text, ply_limit = games_text(name, cls)
        (OUT_DIR / f"{name}.games").write_text(text)
        plies = sum(len(json.loads(line)["plies"]) for line in text.splitlines())
        summary.append((name, len(lines), with_d4, ply_limit, plies, len(text.encode())))
        print(f"{name}: {len(lines)} lines ({with_d4} to depth 4), {GAMES} games of {plies} plies", flush=True)

    (OUT_DIR / "README.md").write_text(readme(summary, disagreements, fen_forms))
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text("\n".join(report + ["disagreements:"] + disagreements) + "\n")
    print(f"{len(disagreements)} disagreements; report: {args.report}; {time.time() - started:.0f} s in all")


def readme(summary, disagreements, fen_forms):
    rows = "\n".join(
        f"| {name} | {lines} | {lines} | {d4} | {GAMES} games, {plies} plies (at most {limit} a game) |"
        for name, lines, d4, limit, plies, _ in summary
    )
    found = "\n".join(f"- {d}" for d in disagreements) or "None: the two oracles agreed on every position."
    return f"""# Variant test data

Generated by `scripts/gen-variant-data.py` (`target/venv/bin/python scripts/gen-variant-data.py`);
do not edit by hand. Positions and games come from seeded random games (uniform moves, or captures
preferred) from each variant's start position; rules as lichess plays them.

Oracles: python-chess {PYTHON_CHESS_VERSION} (`chess.variant`'s board classes) and Fairy-Stockfish's
`pyffish` {".".join(map(str, PYFFISH_VERSION))} (variant names `atomic`, `antichess`, `crazyhouse`,
`kingofthehill`, `3check`, `horde`, `racingkings`).

## `<variant>.perft`

One position a line, in the form of the project's other perft suites:
`<FEN> ;D1 n ;D2 n ;D3 n`, and on some lines ` ;D4 n` after it. The FEN is python-chess's `board.fen()`
(crazyhouse pockets `[...]` after the board and `~` after promoted pieces; three-check's remaining
checks as a `3+3` field before the clocks). The counts are perft node counts computed by both oracles
(python-chess: recursion over `legal_moves`; pyffish: `legal_moves` of every node); a line is kept
only where both agree at every depth. Positions: random plies, with quotas for checks, en passant,
promotions, castling, few pieces, crazyhouse pockets and promoted pieces, the last checks of
three-check, kings near the hill or the eighth rank, forced captures, and positions where the game
is already over (mate, stalemate or the variant's own end: every count is 0, and pyffish too gives
no moves there). pyffish reads these FENs unchanged; `pyffish.get_fen` wrote {fen_forms} of them
differently. Depth-3 trees are kept small (pyffish costs about 2 ms a node); depth 4 is given for
{DEPTH4_LINES} lines a variant, picked among those with at most {DEPTH4_LEAVES} leaves at depth 3 (the
cheapest others where too few have).

## `<variant>.games`

One JSON object a line: `start` (FEN), `plies`: `[uci, san, fen_after, is_check, is_variant_end]`
per ply (python-chess's `move.uci()`, drops as `N@f3`; `board.san(move)` before the move; `board.fen()`,
`board.is_check()` and `board.is_variant_end()` after it), `outcome`: python-chess's `board.outcome()`
of the final position as `{{"termination": "VARIANT_WIN", "winner": "white"}}` (the `Termination`
name; winner `white`, `black` or null) or null, and `insufficient`:
`[has_insufficient_material(WHITE), has_insufficient_material(BLACK)]` of the final position.

## Figures

| variant | perft lines | to depth 3 | to depth 4 | games |
| --- | --- | --- | --- | --- |
{rows}

## Disagreements between the oracles

{found}
"""


if __name__ == "__main__":
    main()
