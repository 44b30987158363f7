import chess.fen.FEN;
import chess.fen.FENException;

/** Exercises chess.fen.FEN over libchesscore; prints a tally and exits non-zero on a failure. **/
class TestFEN {
	static var passed = 0;
	static var failed = 0;

	static function check(ok:Bool, what:String, ?pos:haxe.PosInfos):Void {
		if (ok) {
			passed++;
		} else {
			failed++;
			Sys.println('${pos.fileName}:${pos.lineNumber}: failed: $what');
		}
	}

	static function throws(f:() -> Void, code:Int, offset:Int, ?pos:haxe.PosInfos):Void {
		try {
			f();
			check(false, 'no exception, expected code $code', pos);
		} catch (e:FENException) {
			check(e.code == code && e.offset == offset, 'code ${e.code} offset ${e.offset}: ${e.message}', pos);
		}
	}

	static function main() {
		var start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
		var fen = new FEN(start);
		check(fen.getFENString() == start && fen.toString() == start, "getFENString");
		check(fen.getFieldPlacement() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "field placement");
		check(fen.getActiveColor() == "w" && fen.getCastlingAvailability() == "KQkq" && fen.getEnPassant() == "-", "fields");
		check(fen.getHalfmoveClock() == 0 && fen.getFullmoveNumber() == 1, "clocks");
		var board = fen.getBoard();
		check(board == "rnbqkbnr\npppppppp\n        \n        \n        \n        \nPPPPPPPP\nRNBQKBNR", "getBoard: " + board);
		check(board.split("\n").length == 8, "8 rows");
		check(fen.split(start).join("|") == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|w|KQkq|-|0|1", "split");
		check(fen.split("8/8/8/8/8/8/8/K6k b - -").join("|") == "8/8/8/8/8/8/8/K6k|b|-|-|0|1", "split fills the clocks");
		check(fen.getLegalMoves().length == 20 && fen.getLegalMoves()[0] == "b1a3", "legal moves: " + fen.getLegalMoves());
		check(fen.getLegalMovesSAN().indexOf("Nf3") >= 0 && fen.getLegalMovesSAN().length == 20, "SAN");
		check(fen.perft(3) == 8902, "perft");

		var sicilian = FEN.createFENFromComponents("rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R", "b", "KQkq", "-", 1, 2);
		check(sicilian.toString() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", "createFENFromComponents");
		var castle = new FEN("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
		check(castle.getLegalMoves().indexOf("e1g1") >= 0 && castle.getLegalMovesSAN().indexOf("O-O-O") >= 0, "castling");
		check(castle.play("O-O").toString() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1", "play SAN");
		check(castle.play("e1c1").getCastlingAvailability() == "kq", "play UCI");
		check(castle.toString() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "play makes a new record");
		var mate = new FEN("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").play("Qh4");
		check(mate.isCheckmate() && mate.isCheck() && !mate.isStalemate() && mate.getLegalMoves().length == 0, "checkmate");
		check(new FEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").isStalemate(), "stalemate");
		check(new FEN("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").isInsufficientMaterial(), "insufficient material");

		// Invalid records raise, with the C library's code (chesscore.h) and the offset.
		throws(() -> new FEN("8/8/8/8/8/8/8/8 x - - 0 1"), 108, 16);
		throws(() -> new FEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"), 105, 35);
		throws(() -> new FEN("4k3/8/8/8/8/8/8/8 w - - 0 1"), 113, 0);
		throws(() -> new FEN(""), 100, 0);
		throws(() -> new FEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1 é"), 102, 30);
		throws(() -> FEN.createFENFromComponents("8/8/8/8/8/8/8/K6k", "w", "-", "-", -1, 1), 111, 24);
		throws(() -> fen.split("8/8 w"), 103, 5);
		throws(() -> castle.play("Ke3"), 200, -1);
		var before = castle.toString();
		throws(() -> castle.setActiveColor("x"), 108, 24);
		check(castle.toString() == before, "a refused setter leaves the record");
		castle.setActiveColor("b");
		castle.setFullmoveNumber(7);
		check(castle.toString() == "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 7", "setters: " + castle);
		check(castle.getLegalMoves().indexOf("e8g8") >= 0 && castle.getLegalMoves().indexOf("e1g1") < 0, "a setter changes the position");

		var path = Sys.getEnv("TMPDIR") != null ? Sys.getEnv("TMPDIR") + "/chesscore_haxe.fen" : "/tmp/chesscore_haxe.fen";
		sicilian.serialize(path);
		check(FEN.deserialize(path).toString() == sicilian.toString(), "serialize and deserialize");
		check(FEN.deserialize(path + ".missing") == null, "deserialize of a missing file");
		sys.io.File.saveContent(path, "not a fen\n");
		throws(() -> FEN.deserialize(path), 103, 9);
		sys.FileSystem.deleteFile(path);

		Sys.println('haxe FEN: $passed passed, $failed failed');
		Sys.exit(failed == 0 ? 0 : 1);
	}
}
