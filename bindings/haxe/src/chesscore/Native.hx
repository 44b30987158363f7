package chesscore;

import cpp.ConstCharStar;
import cpp.RawPointer;
import cpp.SizeT;
import cpp.UInt16;
import cpp.UInt32;
import cpp.UInt64;

/** `chess_position` of chesscore.h, held by value (128 bytes of private contents) in a local or a
	field, started from `Native.startPosition()`; the functions take its address,
	`cpp.Pointer.addressOf(pos).raw`. **/
@:include("chesscore_hx.h")
@:native("chess_position")
@:structAccess
@:unreflective
extern class ChessPosition {}

/** `chess_fen_info` of chesscore.h, started from `Native.fenInfo()` (its size set): where a FEN
	went wrong, or what the drop flags removed. **/
@:include("chesscore_hx.h")
@:native("chess_fen_info")
@:structAccess
@:unreflective
extern class ChessFenInfo {
	var error_offset:SizeT;
	var dropped_castling:cpp.UInt8;
	var dropped_en_passant:Int;
}

/**
	Externs for hxcpp over the C API of chesscore.h: positions (by value), FEN, moves, UCI, SAN and
	status (games and EPD records are left to the C and C++ APIs). Names and arguments follow the
	header; `chess_error` results are Ints (0 is CHESS_OK). `Build.link()` adds the include path of
	this directory and links libchesscore (see docs/haxe.md for `-D chesscore_include`
	and `-D chesscore_lib`).
**/
@:include("chesscore_hx.h")
@:build(chesscore.Build.link())
extern class Native {
	@:native("chess_version") static function version():ConstCharStar;
	@:native("chess_error_message") static function errorMessage(code:Int):ConstCharStar;

	@:native("chesscore_hx_start_position") static function startPosition():ChessPosition;
	@:native("chess_position_init_chess960")
	static function positionInitChess960(dst:RawPointer<ChessPosition>, number:UInt32):Int;

	@:native("chesscore_hx_fen_info") static function fenInfo():ChessFenInfo;
	@:native("chess_fen_parse_into") static function fenParseInto(fen:ConstCharStar, dst:RawPointer<ChessPosition>):Int;
	@:native("chess_fen_parse_with")
	static function fenParseWith(fen:ConstCharStar, flags:UInt32, dst:RawPointer<ChessPosition>, info:RawPointer<ChessFenInfo>):Int;
	@:native("chess_fen_from_components")
	static function fenFromComponents(placement:ConstCharStar, sideToMove:ConstCharStar, castling:ConstCharStar,
		enPassant:ConstCharStar, halfmoveClock:ConstCharStar, fullmoveNumber:ConstCharStar, dst:RawPointer<ChessPosition>,
		info:RawPointer<ChessFenInfo>):Int;
	@:native("chesscore_hx_fen_split")
	static function fenSplit(fen:ConstCharStar, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>, info:RawPointer<ChessFenInfo>):Int;
	@:native("chess_fen_write")
	static function fenWrite(pos:RawPointer<ChessPosition>, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;
	@:native("chess_position_to_text")
	static function positionToText(pos:RawPointer<ChessPosition>, style:UInt32, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;

	@:native("chess_legal_moves") static function legalMoves(pos:RawPointer<ChessPosition>, out:RawPointer<UInt16>, cap:SizeT):SizeT;
	@:native("chess_position_play") static function play(pos:RawPointer<ChessPosition>, mv:UInt16):Int;
	@:native("chess_position_play_into")
	static function playInto(src:RawPointer<ChessPosition>, mv:UInt16, dst:RawPointer<ChessPosition>):Void;
	@:native("chess_perft") static function perft(pos:RawPointer<ChessPosition>, depth:UInt32):UInt64;
	@:native("chess_move_to_uci_with")
	static function moveToUciWith(mv:UInt16, flags:UInt32, buf:RawPointer<cpp.Char>, cap:SizeT, outLen:RawPointer<SizeT>):Int;
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
