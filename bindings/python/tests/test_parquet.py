"""`chesscore pgn --export parquet` read with pyarrow: the same games as the command's JSON lines,
and the same table as ``chesscore.pgn.to_arrow`` (plain, gzip and Zstandard input, a broken game).
The command is `CHESSCORE_CLI` (tests/python.rs passes the one this build made); without pyarrow
(scripts/test-requirements.txt) the tests are recorded as not run."""

import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import cli_command, data_dir, not_run

import chesscore
import chesscore.pgn

SUITE = "python: the Parquet export read with pyarrow"


@pytest.fixture(scope="module")
def pa():
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401 - the reader of the tests
    except ImportError:
        not_run("python", SUITE, "pyarrow is not installed (scripts/test-requirements.txt)")
    return pyarrow


@pytest.fixture(scope="module")
def cli():
    return cli_command(SUITE)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Games with clocks and evaluations, a broken game, real-world syntax; gzip and Zstandard."""
    pgn = data_dir() / "pgn"
    tmp = tmp_path_factory.mktemp("parquet")
    gz = tmp / "edge.pgn.gz"
    gz.write_bytes(gzip.compress((pgn / "dev_edge_cases.pgn").read_bytes()))
    plain = [pgn / "dev_generated.pgn", pgn / "broken.pgn", pgn / "format.pgn"]
    zstd = shutil.which("zstd")
    if zstd:
        subprocess.run([zstd, "-q", "-o", str(tmp / "crlf.pgn.zst"), str(pgn / "format_crlf_bom.pgn")], check=True)
        return plain + [gz, tmp / "crlf.pgn.zst"]
    return plain + [gz]


def export(cli, fmt, files, *extra):
    run = subprocess.run([cli, "pgn", "--export", fmt, *extra, *map(str, files)], capture_output=True, text=True)
    assert run.returncode in (0, 1), run.stderr
    return run


def rows(table):
    """The table's rows as the JSON lines have them (a null tag is no key)."""
    out = table.to_pylist()
    for row in out:
        row["headers"] = {name: value for name, value in row["headers"].items() if value is not None}
        row["eval"] = [e and {k: v for k, v in e.items() if v is not None} for e in row["eval"]]
    return out


def test_parquet_holds_the_json_lines(pa, cli, inputs, tmp_path):
    jsonl = export(cli, "jsonl", inputs)
    expected = [json.loads(line) for line in jsonl.stdout.splitlines()]
    assert any(game["error"] for game in expected)
    assert any(e and "mate" in e for game in expected for e in game["eval"])
    out = tmp_path / "games.parquet"
    parquet = export(cli, "parquet", inputs, "-o", str(out))
    assert (parquet.returncode, parquet.stdout, parquet.stderr) == (jsonl.returncode, "", jsonl.stderr)
    table = pa.parquet.read_table(out)
    assert table.column_names == ["headers", "uci", "san", "clk", "eval", "error"]
    assert rows(table) == expected
    # The tags: the Seven Tag Roster, then the others as they first appear.
    names = [field.name for field in table.schema.field("headers").type]
    assert names[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    seen = list(dict.fromkeys(name for game in expected for name in game["headers"]))
    assert names[7:] == [name for name in seen if name not in names[:7]]


def test_to_arrow_is_the_parquet_table(pa, cli, inputs, tmp_path):
    out = tmp_path / "games.parquet"
    export(cli, "parquet", inputs, "-o", str(out))
    # One table per file (each with the tags of its file): together, the rows of the file.
    tables = [chesscore.pgn.to_arrow(path) for path in inputs]
    assert [row for table in tables for row in rows(table)] == rows(pa.parquet.read_table(out))
    # Over one file, the same columns in the same order with the same types.
    one = tmp_path / "one.parquet"
    for path in inputs:
        export(cli, "parquet", [path], "-o", str(one))
        expected = pa.parquet.read_table(one).replace_schema_metadata(None)
        table = chesscore.pgn.to_arrow(path, threads=2)
        assert table.schema == expected.schema, path
        assert table.equals(expected), path
    # Sources other than paths read as read_pgn reads them.
    data = Path(inputs[0]).read_bytes()
    assert chesscore.pgn.to_arrow(data).equals(chesscore.pgn.to_arrow(inputs[0]))


def test_to_arrow_without_pyarrow(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name == "pyarrow" or name.startswith("pyarrow."):
            raise ImportError("No module named 'pyarrow'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(ImportError, match="pip install pyarrow"):
        chesscore.pgn.to_arrow(data_dir() / "pgn" / "format.pgn")
