"""The package as a whole: its declarations against chesscore.h, library loading, the
exception hierarchy, threads and memory."""

import ctypes
import doctest
import gc
import os
import re
import shutil
import subprocess
import sys
import threading
import weakref
from pathlib import Path

import pytest

import chesscore
from chesscore import _native, errors

from conftest import ROOT

HEADER = (ROOT / "include" / "chesscore.h").read_text()
PACKAGE = Path(chesscore.__file__).resolve().parent


DEFINES = {name: int(value) for name, value in re.findall(r"^#define (CHESS_\w+) (-?\d+)$", HEADER, re.M)}

# The ctypes type of each C type of the header (const and struct left out, pointers as "*").
C_TYPES = {
    "void": None,
    "bool": ctypes.c_bool,
    "size_t": ctypes.c_size_t,
    "double": ctypes.c_double,
    "int8_t": ctypes.c_int8,
    "int16_t": ctypes.c_int16,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "uint8_t": ctypes.c_uint8,
    "uint16_t": ctypes.c_uint16,
    "uint32_t": ctypes.c_uint32,
    "uint64_t": ctypes.c_uint64,
    "char": ctypes.c_char,
    "chess_error": ctypes.c_uint32,
    "chess_square": ctypes.c_int32,
    "chess_move": ctypes.c_uint16,
    "chess_read_fn": _native.READ_FN,
    "chess_position": _native.Position,
    "chess_setup": _native.Setup,
    "chess_game": _native.Game,
    "chess_epd": _native.Epd,
    "chess_pgn_reader": _native.PgnReader,
    "chess_outcome": _native.Outcome,
    "chess_eval": _native.NodeEval,
    "chess_highlight": _native.NodeHighlight,
    "chess_arrow": _native.NodeArrow,
    "chess_fen_info": _native.FenInfo,
    "chess_pgn_error_info": _native.PgnErrorInfo,
    "chess_pgn_options": _native.PgnOptions,
    "chess_svg_options": _native.SvgOptions,
    "chess_svg_arrow": _native.SvgArrow,
    "chess_svg_fill": _native.SvgFill,
    "chess_node": ctypes.c_uint32,
    "chess_engine": _native.Engine,
    "chess_analysis": _native.Analysis,
    "chess_engine_options": _native.EngineOptions,
    "chess_engine_option": _native.EngineOption,
    "chess_limits": _native.Limits,
    "chess_info": _native.Info,
    "chess_info_fn": _native.INFO_FN,
    "chess_book": _native.Book,
    "chess_tablebase": _native.Tablebase,
    "chess_tablebase_move": _native.TablebaseMove,
    "chess_tablebase_options": _native.TablebaseOptions,
    "chess_tablebase_error_info": _native.TablebaseErrorInfo,
    "chess_binpack_reader": _native.BinpackReader,
    "chess_binpack_writer": _native.BinpackWriter,
    "chess_training_entry": _native.TrainingEntry,
    "chess_training_record": _native.TrainingRecord,
    "chess_book_builder": _native.BookBuilder,
    "chess_book_entry": _native.BookEntry,
    "chess_book_raw_entry": _native.BookRawEntry,
    "chess_book_error_info": _native.BookErrorInfo,
    "chess_book_lookup_options": _native.BookLookupOptions,
    "chess_book_build_options": _native.BookBuildOptions,
    "chess_variant_position": _native.VariantPosition,
}
C_TYPES.update(
    dict.fromkeys(
        [
            "chess_color",
            "chess_piece_kind",
            "chess_piece",
            "chess_move_kind",
            "chess_ep_mode",
            "chess_result",
            "chess_termination",
            "chess_operand_kind",
            "chess_comment_place",
            "chess_option_type",
            "chess_score_kind",
            "chess_bound",
            "chess_book_choice",
            "chess_mark_color",
            "chess_variant",
        ],
        ctypes.c_uint8,
    )
)
# Pointers whose ctypes type is not POINTER(pointee): strings, byte buffers, the callback's user data.
C_POINTERS = {"char *": ctypes.c_char_p, "uint8_t *": ctypes.c_char_p, "void *": ctypes.c_void_p}


def ctypes_type(declaration):
    """The ctypes type of a C type such as ``const struct chess_position *``."""
    words = [w for w in declaration.replace("*", " * ").split() if w not in ("const", "struct")]
    base, stars = words[0], words.count("*")
    name = base + " *" if stars else base
    if name in C_POINTERS:
        result, stars = C_POINTERS[name], stars - 1
    else:
        result = C_TYPES[base]
    for _ in range(stars):
        result = ctypes.POINTER(result)
    return result


def parameter_type(parameter):
    """The C type of a parameter declaration (its name is the last word)."""
    return re.sub(r"\w+$", "", parameter.strip())


def header_functions():
    """{name: (return type, [parameter types])} for every function chesscore.h declares."""
    functions = {}
    for match in re.finditer(r"^([a-z][\w ]*?[\s*])(chess_\w+)\(([^)]*)\);", HEADER, re.M):
        returns, name, params = match.groups()
        params = [] if params.strip() == "void" else [parameter_type(p) for p in params.split(",")]
        functions[name] = (ctypes_type(returns), [ctypes_type(p) for p in params])
    return functions


def test_every_header_function_is_declared_with_its_signature():
    declared = header_functions()
    assert len(declared) >= 100
    assert sorted(_native.SIGNATURES) == sorted(declared)
    for name, (restype, argtypes) in _native.SIGNATURES.items():
        assert (restype, argtypes) == declared[name], name


def header_struct(name):
    """[(field, ctypes type)] of a struct chesscore.h defines."""
    body = HEADER[HEADER.index(f"typedef struct {name} {{") : HEADER.index(f"}} {name};")]
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    fields = []
    for declaration, field, length in re.findall(r"^\s+([\w *]+?[\s*])(\w+)(?:\[(\w+)\])?;", body, re.M):
        kind = ctypes_type(declaration)
        if length:
            kind = kind * (DEFINES[length] if length in DEFINES else int(length))
        fields.append((field, kind))
    return fields


@pytest.mark.parametrize(
    "name, structure",
    [
        ("chess_fen_info", _native.FenInfo),
        ("chess_pgn_error_info", _native.PgnErrorInfo),
        ("chess_pgn_options", _native.PgnOptions),
        ("chess_svg_options", _native.SvgOptions),
        ("chess_svg_arrow", _native.SvgArrow),
        ("chess_svg_fill", _native.SvgFill),
        ("chess_outcome", _native.Outcome),
        ("chess_eval", _native.NodeEval),
        ("chess_highlight", _native.NodeHighlight),
        ("chess_arrow", _native.NodeArrow),
        ("chess_position", _native.Position),
        ("chess_engine_options", _native.EngineOptions),
        ("chess_engine_option", _native.EngineOption),
        ("chess_limits", _native.Limits),
        ("chess_info", _native.Info),
        ("chess_book_entry", _native.BookEntry),
        ("chess_tablebase_move", _native.TablebaseMove),
        ("chess_tablebase_options", _native.TablebaseOptions),
        ("chess_tablebase_error_info", _native.TablebaseErrorInfo),
        ("chess_book_raw_entry", _native.BookRawEntry),
        ("chess_book_error_info", _native.BookErrorInfo),
        ("chess_book_lookup_options", _native.BookLookupOptions),
        ("chess_book_build_options", _native.BookBuildOptions),
        ("chess_training_entry", _native.TrainingEntry),
        ("chess_training_record", _native.TrainingRecord),
        ("chess_setup", _native.Setup),
    ],
)
def test_structures_match_the_header(name, structure):
    fields = [(field, kind) for field, kind in structure._fields_]
    expected = header_struct(name)
    assert [f for f, _ in fields] == [f for f, _ in expected]
    for (field, kind), (_, want) in zip(fields, expected):
        # Arrays are new types each time: compare their element and length.
        if hasattr(want, "_length_"):
            assert (kind._type_, kind._length_) == (want._type_, want._length_), field
        else:
            assert kind is want, field


def test_constants_match_the_header():
    constants = {name: value for name, value in vars(_native).items() if name.isupper() and isinstance(value, int)}
    checked = {name for name in constants if "CHESS_" + name in DEFINES}
    assert {"MAX_MOVES", "FEN_CHESS960", "FEN_WRITE_SHREDDER", "TEXT_UNICODE", "UCI_KING_TAKES_ROOK"} <= checked
    for name in checked:
        assert constants[name] == DEFINES["CHESS_" + name], name


def test_error_codes_match_the_header():
    codes = {
        re.sub(r"^CHESS_(ERR_)?", "", name): value
        for name, value in DEFINES.items()
        if name in ("CHESS_OK", "CHESS_END") or name.startswith("CHESS_ERR_")
    }
    assert {code.name: code.value for code in chesscore.ErrorCode} == codes
    for code in chesscore.ErrorCode:
        if code != chesscore.ErrorCode.OK:
            error = errors.error_for(code)
            assert isinstance(error, chesscore.Error) and error.code == code and error.message


def test_one_native_layer_holds_the_library():
    """Only chesscore._native loads the library and declares signatures; errors imports none of
    the package (so it and the native layer cannot import each other); no module imports
    another's private names, but those of the internal modules _native and _args."""
    for source in PACKAGE.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        if source.name != "_native.py":
            assert not re.search(r"\b(CDLL|PyDLL)\(|\.(argtypes|restype) *=", text), source
        for names in re.findall(r"^from \.[\w.]* import (\([^)]*\)|.*)$", text, re.M):
            for name in names.strip("()").replace("\n", ",").split(","):
                name = name.split("#")[0].split(" as ")[0].strip()
                assert not name.startswith("_") or name in ("_args", "_native"), f"{source}: {name}"
    assert not re.search(r"^\s*(from \.|import chesscore)", (PACKAGE / "errors.py").read_text(), re.M)


def test_every_exception_is_a_chesscore_error():
    for name in chesscore.__all__:
        value = getattr(chesscore, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            assert issubclass(value, chesscore.Error), name
    assert errors.error_for(450).code == 450  # a code from a newer library keeps its number
    assert type(errors.error_for(450)) is chesscore.Error


def test_versions_and_docstring():
    assert chesscore.library_version() == chesscore.__version__
    assert Path(chesscore.library_path).exists()
    assert doctest.testmod(chesscore).failed == 0


def run_python(code, env, cwd):
    # cwd matters: `python -c` puts it first on sys.path.
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=60)


def test_library_found_through_the_environment_then_beside_the_package(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "CHESSCORE_LIB"}
    env["CHESSCORE_LIB"] = str(tmp_path / "missing.so")
    env["PYTHONPATH"] = str(PACKAGE.parent)
    failed = run_python("import chesscore", env, tmp_path)
    assert failed.returncode != 0 and "LibraryError" in failed.stderr and "CHESSCORE_LIB" in failed.stderr

    # A copy of the package with the library beside it, and no CHESSCORE_LIB.
    copy = tmp_path / "site" / "chesscore"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so*"))
    shutil.copy(_native.path, copy / _native.SONAME)
    del env["CHESSCORE_LIB"]
    env["PYTHONPATH"] = str(copy.parent)
    found = run_python("import chesscore; print(chesscore.library_path); print(chesscore.Position().perft(2))", env, tmp_path)
    assert found.returncode == 0, found.stderr
    assert found.stdout.split() == [str(copy / _native.SONAME), "400"]


def test_handles_are_freed(monkeypatch):
    freed = []
    monkeypatch.setattr(chesscore.Game, "_free", staticmethod(lambda ptr: freed.append(ctypes.addressof(ptr.contents))))
    game = chesscore.Game(chesscore.Position())
    read = next(chesscore.read_pgn_string("1. e4 *"))
    handles = [ctypes.addressof(game._ptr.contents), ctypes.addressof(read._ptr.contents)]
    ref = weakref.ref(game)
    del game, read
    gc.collect()
    assert ref() is None and set(handles) <= set(freed)


def test_positions_are_held_by_value():
    # A chess_position in Python memory: nothing to free, and a copy shares nothing.
    assert ctypes.sizeof(_native.Position) == 128 and ctypes.alignment(_native.Position) == 8
    pos = chesscore.Position()
    copy = pos.copy()
    assert isinstance(pos._pos, _native.Position) and ctypes.addressof(copy._pos) != ctypes.addressof(pos._pos)
    copy.push_san("e4")
    assert pos.fen() == chesscore.STARTING_FEN and copy != pos


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc")
def test_no_leak_over_many_handles():
    def churn():
        for _ in range(8000):
            pos = chesscore.Position.from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
            pos.copy().push_uci("e1g1")
            game = chesscore.Game(pos)
            game.push_san("O-O")
            game.board()
            chesscore.Epd("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"x\";")

    churn()  # warm up the allocators
    gc.collect()
    before = resident_bytes()
    for _ in range(3):
        churn()
    gc.collect()
    # 24,000 of each handle leaked would be over 14 MB.
    assert resident_bytes() - before < 6 * 1024 * 1024


def test_threads_share_the_library():
    kiwipete = chesscore.Position.from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    results = []

    def work():
        pos = kiwipete.copy()  # each thread changes only its own position
        total = pos.perft(3)
        for move in pos.legal_moves()[:10]:
            pos.copy().push(move)
        results.append((total, kiwipete.perft(2)))  # reading a shared one is fine

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [(97862, 2039)] * 4
