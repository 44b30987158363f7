"""Shared fixtures: the test data directory (CHESSCORE_TESTDATA, or ../shared/testdata beside
the checkout) and the repository root."""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def data_dir():
    path = Path(os.environ.get("CHESSCORE_TESTDATA", ROOT.parent / "shared" / "testdata"))
    if not path.is_dir():
        pytest.fail(f"test data not found at {path} (set CHESSCORE_TESTDATA)")
    return path


def read_jsonl(relative):
    with open(data_dir() / relative, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def testdata():
    return data_dir()
