package chesscore;

import cpp.ConstCharStar;
import cpp.RawPointer;
import cpp.SizeT;
import cpp.UInt16;
import cpp.UInt32;
import cpp.UInt64;

/** The opaque `chess_position` of chesscore.h. */
@:include("chesscore_hx.h")
@:native("chess_position")
extern class ChessPosition {}

/**
	Externs for hxcpp over the C API of chesscore.h: positions, FEN, moves, UCI, SAN and status
	(games and EPD records are left to the C and C++ APIs). Names and arguments follow the header;
	`chess_error` results are Ints (0 is CHESS_OK). `Build.link()` adds the include path of this
	directory and links libchesscore (see the README's Haxe section for `-D chesscore_include` and
	`-D chesscore_lib`).
**/
@:include("chesscore_hx.h")
@:build(chesscore.Build.link())
extern class Native {
	@:native("chess_version") static function version():ConstCharStar;
	@:native("chesscore_hx_error_message") static function errorMessage(code:Int):ConstCharStar;

	@:native("chess_position_new") static function positionNew():RawPointer<ChessPosition>;
	@:native("chess_position_clone") static function positionClone(pos:RawPointer<ChessPosition>):RawPointer<ChessPosition>;
	@:native("chess_position_free") static function positionFree(pos:RawPointer<ChessPosition>):Void;

	@:native("chess_fen_parse_ex")
	static function fenParseEx(fen:ConstCharStar, out:RawPointer<RawPointer<ChessPosition>>, errorOffset:RawPointer<SizeT>):Int;
	@:native("chess_fen_parse_chess960_ex")
	static function fenParseChess960Ex(fen:ConstCharStar, out:RawPointer<RawPointer<ChessPosition>>, errorOffset:RawPointer<SizeT>):Int;
	@:native("chess_fen_from_components")
	static function fenFromComponents(placement:ConstCharStar, sideToMove:ConstCharStar, castling:ConstCharStar,
		enPassant:ConstCharStar, halfmoveClock:ConstCharStar, fullmoveNumber:ConstCharStar, out:RawPointer<RawPointer<ChessPosition>>,
		errorOffset:RawPointer<SizeT>):Int;
	@:native("chesscore_hx_fen_split")
	static function fenSplit(fen:ConstCharStar, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>, errorOffset:RawPointer<SizeT>):Int;
	@:native("chess_fen_write")
	static function fenWrite(pos:RawPointer<ChessPosition>, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;
	@:native("chess_position_board_string")
	static function boardString(pos:RawPointer<ChessPosition>, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;

	@:native("chess_legal_moves") static function legalMoves(pos:RawPointer<ChessPosition>, out:RawPointer<UInt16>, cap:SizeT):SizeT;
	@:native("chess_position_play") static function play(pos:RawPointer<ChessPosition>, mv:UInt16):Int;
	@:native("chess_perft") static function perft(pos:RawPointer<ChessPosition>, depth:UInt32):UInt64;
	@:native("chess_move_to_uci_in")
	static function moveToUciIn(pos:RawPointer<ChessPosition>, mv:UInt16, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;
	@:native("chess_move_to_san")
	static function moveToSan(pos:RawPointer<ChessPosition>, mv:UInt16, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;
	@:native("chess_move_from_uci") static function moveFromUci(pos:RawPointer<ChessPosition>, uci:ConstCharStar, out:RawPointer<UInt16>):Int;
	@:native("chess_move_from_san") static function moveFromSan(pos:RawPointer<ChessPosition>, san:ConstCharStar, out:RawPointer<UInt16>):Int;

	@:native("chess_position_is_chess960") static function isChess960(pos:RawPointer<ChessPosition>):Bool;
	@:native("chess_position_in_check") static function inCheck(pos:RawPointer<ChessPosition>):Bool;
	@:native("chess_position_is_checkmate") static function isCheckmate(pos:RawPointer<ChessPosition>):Bool;
	@:native("chess_position_is_stalemate") static function isStalemate(pos:RawPointer<ChessPosition>):Bool;
	@:native("chess_position_is_insufficient_material") static function isInsufficientMaterial(pos:RawPointer<ChessPosition>):Bool;
	@:native("chess_position_halfmove_clock") static function halfmoveClock(pos:RawPointer<ChessPosition>):UInt32;
	@:native("chess_position_fullmove_number") static function fullmoveNumber(pos:RawPointer<ChessPosition>):UInt32;
}
