"""Builds the seed corpus of every fuzz target from tests/data, the third-party test files when
present ($CHESSCORE_TESTDATA or ../shared/testdata) and the tests' inputs.

Usage: python3 fuzz/seed_corpus.py [OUT_DIR]   (default fuzz/corpus); one file per seed.
"""
import glob
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "data")
SHARED = os.environ.get("CHESSCORE_TESTDATA", os.path.join(ROOT, "..", "shared", "testdata"))
DIRS = [DATA] + ([SHARED] if os.path.isdir(SHARED) else [])
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")


def jsonl(relative):
    with open(os.path.join(DATA, relative), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def save(target, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    directory = os.path.join(OUT, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


fens = [v["fen"] for v in jsonl("vectors/dev.jsonl")[::5]]
fens += [v["fen"] for v in jsonl("fen/bad.jsonl") + jsonl("fen/good.jsonl")]
def files(directory, pattern):
    return sorted(path for root in DIRS for path in glob.glob(os.path.join(root, directory, pattern)))


for path in files("perft", "*.epd"):
    fens += [line.split(";")[0].strip() for line in open(path) if line.strip()]
for fen in fens:
    save("fen", fen)

# Variant positions: the generated perft suites, each FEN behind the byte that picks its variant.
VARIANT_SELECTORS = {"atomic": 2, "antichess": 3, "crazyhouse": 4, "kingofthehill": 5, "threecheck": 6, "horde": 7, "racingkings": 8}
VARIANT_STARTS = [
    (2, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    (4, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Pn w KQkq - 2 3"),
    (6, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"),
    (7, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"),
    (8, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"),
]
for selector, fen in VARIANT_STARTS:
    save("variant", bytes([selector]) + fen.encode())
for name, selector in VARIANT_SELECTORS.items():
    path = os.path.join(ROOT, "core", "tests", "data", "variant", name + ".perft")
    if os.path.exists(path):
        for line in list(open(path))[::10]:
            save("variant", bytes([selector]) + line.split(";")[0].strip().encode())

for i, case in enumerate(jsonl("san/san_cases.jsonl")[::3]):
    save("san", bytes([i % 256]) + case["input"].encode("utf-8"))
for i, v in enumerate(jsonl("vectors/dev.jsonl")[::20]):
    for uci, san, _, _ in v["moves"][:3]:
        save("san", bytes([i % 256]) + san.encode())
        save("uci", bytes([i % 256]) + uci.encode())
for i, case in enumerate(jsonl("uci/uci_cases.jsonl")):
    save("uci", bytes([i % 256]) + case["input"].encode("utf-8"))

for path in files("epd", "*.epd"):
    for line in open(path, encoding="utf-8"):
        if line.strip():
            save("epd", line.rstrip("\n"))

for path in files("pgn", "*.pgn"):
    data = open(path, "rb").read()
    # The first byte is the stream's piece size (see fuzz_targets/pgn.rs).
    save("pgn", b"\x07" + data[:60000])
    # Single games too, so that mutations stay small.
    for i, game in enumerate(data.split(b"\n\n[")[:40]):
        save("pgn", bytes([i]) + (game if game.startswith(b"[") else b"[" + game))

# Variant games, which only next_any_game reads.
for i, game in enumerate([
    b'[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. @d5 { drop } (4. d4 e5) 4... @e6 *\n',
    b'[Variant "Atomic"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *\n',
    b'[Variant "King of the Hill"]\n\n1. d4 e5 2. dxe5 Ke7 3. Kd2 Ke6 4. Kd3 Kxe5# 0-1\n',
    b'[Variant "Three-check"]\n[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"]\n\n1. Ra8+ Kd7 2. Ra7+ Kc6 3. Ra6# 1-0\n',
    b'[Variant "Horde"]\n\n1. e5 d6 *\n\n[Variant "Racing Kings"]\n\n1. Kh3 *\n\n1. e4 *\n',
]):
    save("pgn", bytes([i]) + game)

# C ABI programs (see fuzz_targets/cabi.rs): op = slot << 4 | action.
def fen_op(action, fen):
    data = fen.encode()[:255]
    return bytes([action, len(data)]) + data

programs = [
    bytes([0, 3, 0, 3, 1, 3, 2, 4, 5, 3, 12, 40, 8, 9, 0, 9, 1, 10, 10, 10, 11, 7]),
    bytes([0, 6, 0x10, 3, 0, 0x13, 1, 4, 0x80, 0x12, 0x01, 5, 13, 7, 0x17]),
]
for i, v in enumerate(jsonl("vectors/dev.jsonl")[::40]):
    programs.append(fen_op(1, v["fen"]) + bytes([3, i, 4, i + 1, 3, 8, 8, 9, i, 9, i + 2, 10, 12, 7]))
for i, v in enumerate(jsonl("vectors/dev960.jsonl")[::30]):
    programs.append(fen_op(2, v["fen"]) + bytes([3, i, 4, i, 3, 12, 9, 8, 9, i, 10, 6]))
for i, case in enumerate(jsonl("san/san_cases.jsonl")[::25]):
    text = case["input"].encode("utf-8")[:255]
    programs.append(fen_op(1, case["fen"]) + bytes([5, len(text)]) + text)
for program in programs:
    save("cabi", program)

# Polyglot books: the test book whole, slices of it and of the third-party books, one entry.
for path in files("polyglot", "*.bin"):
    data = open(path, "rb").read()
    for start in range(0, min(len(data), 1 << 20), 8192):
        save("book", data[start : start + 1024])
    save("book", data[:16])
save("book", b"")

# Binary FEN: positions of the vectors, packed here as Position.to_binary_fen does (without the
# castling and en passant codes, which mutations find).
PIECES = "PpNnBbRrQqKk"


def binary_fen(fen):
    placement, turn, castling, ep = fen.split()[:4]
    board = {}
    for rank_index, rank in enumerate(placement.split("/")):
        file = 0
        for c in rank:
            if c.isdigit():
                file += int(c)
            else:
                board[(7 - rank_index) * 8 + file] = c
                file += 1
    occupied = sum(1 << sq for sq in board)
    codes = []
    for sq in sorted(board):
        code = PIECES.index(board[sq])
        if board[sq] == "k" and turn == "b":
            code = 15
        codes.append(code)
    codes.append(0)
    data = occupied.to_bytes(8, "big") + bytes(codes[i] | codes[i + 1] << 4 for i in range(0, len(codes) - 1, 2))
    return data.rstrip(b"\0")


for fen in fens[:400]:
    try:
        save("binary_fen", binary_fen(fen))
    except (ValueError, IndexError):
        pass

# Training data: the binpack fixture whole and cut, and its first chunk's stems.
for path in files("binpack", "*.binpack"):
    data = open(path, "rb").read()
    # The first stems and chains, the chunk's length cut to fit (the last chain is cut short).
    for length in (300, 1000, 4096):
        save("binpack", b"BINP" + (length - 8).to_bytes(4, "little") + data[8:length])
save("binpack", b"fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nscore 10\nply 0\nresult 0\ne\n")

# Syzygy tables: the first byte names the table and its kind (fuzz_targets/tablebase.rs), the
# rest is a shared table file, whole when small, its start otherwise.
for choice, name in enumerate(["KQvK", "KRvKR", "KPvKP", "KBNvK", "KRPvKR"]):
    for kind, ext in enumerate(["rtbw", "rtbz"]):
        for path in files("syzygy", f"{name}.{ext}"):
            data = open(path, "rb").read()
            save("tablebase", bytes([choice << 1 | kind]) + data[:65535])
save("tablebase", b"\x00")
