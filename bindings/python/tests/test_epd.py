"""EPD records against python-chess's reading of the EPD files (epd/*.expected.jsonl)."""

import pytest

import chesscore
from chesscore import Epd

from conftest import data_dir, read_jsonl, shared_dir

GENERATED = ["dev_edge_cases", "dev_generated"]
PUBLISHED = ["bratko_kopec", "ccr_one_hour", "win_at_chess"]


def test_record():
    epd = Epd('r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; id "ruy"; acd 12; ce 0.5; hmvc 2; fmvn 3; pv Bb5 a6;')
    assert epd.position().fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert list(epd) == ["bm", "id", "acd", "ce", "hmvc", "fmvn", "pv"] and len(epd) == 7
    assert [m.uci() for m in epd["bm"]] == ["f1b5", "f1c4"]
    assert [m.uci() for m in epd["pv"]] == ["f1b5", "a7a6"]
    assert epd["id"] == ["ruy"] and epd["acd"] == [12] and epd["ce"] == [0.5]
    assert "am" not in epd and epd.get("am") is None and epd.get("acd") == [12]
    with pytest.raises(chesscore.OperationNotFoundError) as e:
        epd["am"]
    assert isinstance(e.value, KeyError) and e.value.code == chesscore.ErrorCode.EPD_NOT_FOUND
    epd["bm"].clear()
    assert len(epd["bm"]) == 2  # operands are handed out as copies
    assert str(Epd(str(epd))) == str(epd) and repr(epd).startswith("Epd('r1bqkbnr")
    c960 = Epd("rk5r/8/8/8/8/8/8/RK5R w HAha - bm O-O;", chess960=True)
    assert c960.position().chess960 and [m.uci() for m in c960["bm"]] == ["b1h1"]
    with pytest.raises(chesscore.EpdError) as e:
        Epd("8/8/8/8/8/8/8/K6k w")
    assert e.value.code == chesscore.ErrorCode.EPD_MISSING_FIELDS and isinstance(e.value, ValueError)
    with pytest.raises(chesscore.IllegalMoveError):
        Epd("8/8/8/8/8/8/8/K6k w - - bm Kb3;")


@pytest.mark.parametrize("name", GENERATED)
def test_generated_epd_files_agree_with_python_chess(name):
    check_file(data_dir() / "epd", name)


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_epd_suites_agree_with_python_chess(name):
    check_file(shared_dir("python: the published EPD suites") / "epd", name)


def check_file(directory, name):
    lines = [line.rstrip("\n") for line in open(directory / f"{name}.epd", encoding="utf-8")]
    cases = read_jsonl(directory / f"{name}.expected.jsonl")
    assert cases
    for case in cases:
        line = lines[case["line"] - 1]
        if case["expected"] != "ok":
            with pytest.raises(chesscore.Error):
                Epd(line)
            continue
        epd = Epd(line)
        assert epd.position().fen() == case["fen"], line
        for opcode, value in case["ops"].items():
            ours = epd[opcode]
            if case["ops_types"][opcode] == "list":
                if opcode == "pv":
                    assert [m.uci() for m in ours] == value, line
                else:  # python-chess sorts bm and am
                    assert sorted(m.uci() for m in ours) == sorted(value), line
            elif value is None:  # an opcode without operands
                assert ours == [], line
            else:
                assert ours == [value], line
