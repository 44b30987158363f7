"""Shared fixtures: the project's test data (CHESSCORE_DATA, or tests/data of the repository),
the third-party test files (CHESSCORE_TESTDATA, or ../shared/testdata beside the checkout), and
the policy for what is optional, the same as the Rust tests': when something is missing, a test
fails if CHESSCORE_REQUIRE names it (or says `all`), and is otherwise skipped and recorded for
the end-of-run summary of scripts/test.sh (in CHESSCORE_NOT_RUN_DIR)."""

import json
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def data_dir():
    return Path(os.environ.get("CHESSCORE_DATA", ROOT / "tests" / "data"))


def required(tool):
    names = [name.strip() for name in os.environ.get("CHESSCORE_REQUIRE", "").split(",")]
    return "all" in names or tool in names


def not_run(tool, suite, why):
    """Fails when `tool` is required; otherwise records `suite` as not run and skips."""
    if required(tool):
        pytest.fail(f"{suite}: {why} (CHESSCORE_REQUIRE makes `{tool}` required)")
    record_dir = os.environ.get("CHESSCORE_NOT_RUN_DIR")
    if record_dir:
        os.makedirs(record_dir, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9]", "_", suite)
        with open(os.path.join(record_dir, name), "w", encoding="utf-8") as f:
            f.write(f"{suite}: not run ({tool}): {why}\n")
    pytest.skip(f"{suite}: {why}")


def shared_dir(suite):
    """The third-party test files, which never go into the repository."""
    path = Path(os.environ.get("CHESSCORE_TESTDATA", ROOT.parent / "shared" / "testdata"))
    if not path.is_dir():
        not_run("testdata", suite, f"the third-party test files are not at {path}")
    return path


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def testdata():
    return data_dir()


def cli_command(suite):
    """The native command line of this build (CHESSCORE_CLI, which tests/python.rs sets)."""
    path = os.environ.get("CHESSCORE_CLI")
    if not path or not Path(path).is_file():
        not_run("cli", suite, "CHESSCORE_CLI does not name the chesscore command (tests/python.rs sets it)")
    return path


def shuffling_move(board, rng):
    """A python-chess variant board's next move in a game made to repeat: mostly a move that
    takes back the side's last one, else a move that neither captures, moves a pawn nor drops;
    None when the game is over."""
    moves = list(board.legal_moves)
    if not moves or board.is_variant_end():
        return None
    quiet = [m for m in moves if not board.is_zeroing(m) and m.drop is None]
    if len(board.move_stack) >= 2 and rng.random() < 0.7:
        last = board.move_stack[-2]
        for move in quiet:
            if (move.to_square, move.from_square) == (last.from_square, last.to_square):
                return move
    return rng.choice(quiet or moves)
