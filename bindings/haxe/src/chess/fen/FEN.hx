package chess.fen;

import chesscore.Native;
import chesscore.Native.ChessPosition;
import cpp.RawPointer;
import cpp.SizeT;
import haxe.io.Bytes;

/**
	A FEN record, checked by chesscore: the API of the pure-Haxe `chess.fen.FEN` class, but an
	invalid record raises a `FENException` (with the C library's error code and the offset of the
	fault) instead of giving an unspecified result. The six fields are kept as given (the clocks
	filled in as 0 and 1 when absent), beside the position chesscore read from them, held by value
	(a `chess_position` field): questions about the position go to the C library without reading
	the record again, and a FEN object holds no native memory to free.
**/
class FEN {
	static inline var FEN_INVALID_CHARACTER = 102;
	static inline var TEXT_MAX = 512;
	static inline var TEXT_BOARD = 0;

	var fieldPlacement:String;
	var activeColor:String;
	var castlingAvailability:String;
	var enPassant:String;
	var halfmoveClock:Int;
	var fullmoveNumber:Int;
	var pos:ChessPosition;

	/** Reads a FEN record (4 to 6 fields); throws FENException when it is invalid. **/
	public function new(fENString:String) {
		pos = parse(fENString);
		setFields(split(fENString));
	}

	/** A FEN record from its six fields; throws FENException when they make no valid position. **/
	public static function createFENFromComponents(fieldPlacement:String, activeColor:String, castlingAvailability:String, enPassant:String,
			halfmoveClock:Int, fullmoveNumber:Int):FEN {
		return new FEN([fieldPlacement, activeColor, castlingAvailability, enPassant, Std.string(halfmoveClock), Std.string(fullmoveNumber)].join(" "));
	}

	/** The six fields of a FEN record, its syntax checked (not the position); throws
		FENException for a record that is not FEN. **/
	public function split(fENString:String):Array<String> {
		checkAscii(fENString);
		var buf = Bytes.alloc(TEXT_MAX);
		var len:SizeT = 0;
		var info = Native.fenInfo();
		var err = Native.fenSplit(fENString, pointer(buf), TEXT_MAX, cpp.Pointer.addressOf(len).raw, cpp.Pointer.addressOf(info).raw);
		if (err != 0)
			throw fenError(err, info.error_offset);
		return buf.getString(0, len).split(String.fromCharCode(0));
	}

	/** The record: its six fields joined by spaces. **/
	public function getFENString():String {
		return '$fieldPlacement $activeColor $castlingAvailability $enPassant $halfmoveClock $fullmoveNumber';
	}

	public function toString():String {
		return getFENString();
	}

	/** 8 rows of 8 characters, rank 8 first, a space for an empty square, joined by "\n". **/
	public function getBoard():String {
		var at = position();
		return readText(buf -> Native.positionToText(at, TEXT_BOARD, pointer(buf), TEXT_MAX, null));
	}

	/** The legal moves in UCI (castling as the king's move, e1g1). **/
	public function getLegalMoves():Array<String> {
		return [for (mv in moves()) moveText(mv, false)];
	}

	/** The legal moves in SAN, with check and mate suffixes. **/
	public function getLegalMovesSAN():Array<String> {
		return [for (mv in moves()) moveText(mv, true)];
	}

	/** The record after a legal move given in UCI or SAN; throws FENException for any other. **/
	public function play(move:String):FEN {
		checkAscii(move);
		var next = pos; // a copy, played on
		var at = cpp.Pointer.addressOf(next).raw;
		var mv:cpp.UInt16 = 0;
		var err = Native.moveFromUci(at, move, cpp.Pointer.addressOf(mv).raw);
		if (err != 0)
			err = Native.moveFromSan(at, move, cpp.Pointer.addressOf(mv).raw);
		if (err == 0)
			err = Native.play(at, mv);
		if (err != 0)
			throw new FENException(err, '${message(err)}: $move');
		return new FEN(readText(buf -> Native.fenWrite(at, pointer(buf), TEXT_MAX, null)));
	}

	public function isCheck():Bool
		return Native.inCheck(position());

	public function isCheckmate():Bool
		return Native.isCheckmate(position());

	public function isStalemate():Bool
		return Native.isStalemate(position());

	public function isInsufficientMaterial():Bool
		return Native.isInsufficientMaterial(position());

	/** The number of leaves of the legal move tree `depth` plies deep (exact below 2^53). **/
	public function perft(depth:Int):Float {
		var nodes:Float = cast Native.perft(position(), depth);
		return nodes;
	}

	public function getFieldPlacement():String
		return fieldPlacement;

	public function getActiveColor():String
		return activeColor;

	public function getCastlingAvailability():String
		return castlingAvailability;

	public function getEnPassant():String
		return enPassant;

	public function getHalfmoveClock():Int
		return halfmoveClock;

	public function getFullmoveNumber():Int
		return fullmoveNumber;

	// The setters replace one field; a record that is no longer valid throws and is left as it was.

	public function setFieldPlacement(fieldPlacement:String):Void
		replace(0, fieldPlacement);

	public function setActiveColor(activeColor:String):Void
		replace(1, activeColor);

	public function setCastlingAvailability(castlingAvailability:String):Void
		replace(2, castlingAvailability);

	public function setEnPassant(enPassant:String):Void
		replace(3, enPassant);

	public function setHalfmoveClock(halfmoveClock:Int):Void
		replace(4, Std.string(halfmoveClock));

	public function setFullmoveNumber(fullmoveNumber:Int):Void
		replace(5, Std.string(fullmoveNumber));

	/** Writes the record to a `.fen` file. **/
	public function serialize(filePath:String):Void {
		sys.io.File.saveContent(filePath, getFENString());
	}

	/** Reads the first non-empty line of a `.fen` file: null when the file does not exist,
		FENException when the line is not a valid record. **/
	public static function deserialize(filePath:String):FEN {
		if (!sys.FileSystem.exists(filePath))
			return null;
		for (line in sys.io.File.getContent(filePath).split("\n"))
			if (StringTools.trim(line) != "")
				return new FEN(line);
		return new FEN("");
	}

	// -- native calls

	/** The position `text` describes, or a FENException. **/
	static function parse(text:String):ChessPosition {
		checkAscii(text);
		var out = Native.startPosition();
		var info = Native.fenInfo();
		var err = Native.fenParseWith(text, 0, cpp.Pointer.addressOf(out).raw, cpp.Pointer.addressOf(info).raw);
		if (err != 0)
			throw fenError(err, info.error_offset);
		return out;
	}

	/** The address of the record's position, for one call of the C library. **/
	function position():RawPointer<ChessPosition>
		return cpp.Pointer.addressOf(pos).raw;

	function setFields(fields:Array<String>):Void {
		fieldPlacement = fields[0];
		activeColor = fields[1];
		castlingAvailability = fields[2];
		enPassant = fields[3];
		halfmoveClock = Std.parseInt(fields[4]);
		fullmoveNumber = Std.parseInt(fields[5]);
	}

	function replace(index:Int, value:String):Void {
		var fields = split(getFENString());
		fields[index] = value;
		var record = new FEN(fields.join(" "));
		setFields(split(record.getFENString()));
		pos = record.pos;
	}

	function moves():Array<cpp.UInt16> {
		var out = new Array<cpp.UInt16>();
		out.resize(256);
		var n:Int = Native.legalMoves(position(), cpp.NativeArray.address(out, 0).raw, 256);
		out.resize(n);
		return out;
	}

	/** SAN, or UCI as standard chess writes it (castling as the king's move). **/
	function moveText(mv:cpp.UInt16, san:Bool):String {
		var buf = Bytes.alloc(16);
		var len:SizeT = 0;
		var err = san ? Native.moveToSan(position(), mv, pointer(buf), 16, cpp.Pointer.addressOf(len).raw) : Native.moveToUciWith(mv, 0, pointer(buf), 16,
			cpp.Pointer.addressOf(len).raw);
		return err == 0 ? buf.getString(0, len) : "";
	}

	/** Runs `write` into a buffer; the text up to its NUL. **/
	static function readText(write:Bytes->Int):String {
		var buf = Bytes.alloc(TEXT_MAX);
		var err = write(buf);
		if (err != 0)
			throw new FENException(err, message(err));
		var len = 0;
		while (buf.get(len) != 0)
			len++;
		return buf.getString(0, len);
	}

	static function pointer(buf:Bytes):RawPointer<cpp.Char> {
		var bytes:cpp.Pointer<cpp.Char> = cpp.NativeArray.address(buf.getData(), 0).reinterpret();
		return bytes.raw;
	}

	/** hxcpp may keep a non-ASCII String as UTF-16, and FEN is ASCII: such a character is refused
		here, where its offset is known. **/
	static function checkAscii(text:String):Void {
		if (text == null)
			throw new FENException(2, "the FEN record is null");
		for (i in 0...text.length)
			if (StringTools.fastCodeAt(text, i) > 126)
				throw new FENException(FEN_INVALID_CHARACTER, message(FEN_INVALID_CHARACTER), i);
	}

	static function fenError(err:Int, offset:Int):FENException {
		return err >= 100 && err < 200 ? new FENException(err, message(err), offset) : new FENException(err, message(err));
	}

	static function message(err:Int):String {
		return Native.errorMessage(err).toString();
	}
}
