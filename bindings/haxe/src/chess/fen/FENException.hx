package chess.fen;

/** A FEN record chesscore refuses: `code` is the C library's `chess_error` value and `offset`
	the byte where the record went wrong (-1 when the error is not about a place in it). **/
class FENException extends haxe.Exception {
	public final code:Int;
	public final offset:Int;

	public function new(code:Int, description:String, offset:Int = -1) {
		super(offset >= 0 ? '$description (at offset $offset)' : description);
		this.code = code;
		this.offset = offset;
	}
}
