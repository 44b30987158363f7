package chesscore;

#if macro
import haxe.macro.Context;
import haxe.macro.Expr;
#end

/** Build-time configuration of the externs: the hxcpp build XML that finds chesscore_hx.h (beside
	Native.hx, wherever the sources are) and links libchesscore. **/
class Build {
	#if macro
	public static function link():Array<Field> {
		var here = sys.FileSystem.absolutePath(Context.getPosInfos(Context.currentPos()).file);
		var flags = ['<compilerflag value="-I${haxe.io.Path.directory(here)}"/>'];
		var libs = ['<lib name="-lchesscore"/>'];
		// Where the header and the library are when not on the compiler's default paths; an
		// install into /usr/local (scripts/install.sh's default prefix) is found without flags.
		var include = Context.definedValue("chesscore_include");
		if (include == null && sys.FileSystem.exists("/usr/local/include/chesscore.h"))
			include = "/usr/local/include";
		if (include != null)
			flags.push('<compilerflag value="-I${sys.FileSystem.absolutePath(include)}"/>');
		var lib = Context.definedValue("chesscore_lib");
		if (lib == null && sys.FileSystem.exists("/usr/local/lib/libchesscore.so"))
			lib = "/usr/local/lib";
		if (lib != null) {
			var dir = sys.FileSystem.absolutePath(lib);
			libs.unshift('<flag value="-Wl,-rpath,$dir"/>');
			libs.unshift('<flag value="-L$dir"/>');
		}
		var xml = '<files id="haxe">${flags.join("")}</files><target id="haxe">${libs.join("")}</target>';
		Context.getLocalClass().get().meta.add(":buildXml", [macro $v{xml}], Context.currentPos());
		return null;
	}
	#end
}
