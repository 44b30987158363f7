//! Compiles `examples/perft.c` (its `main` renamed away) for the `cabi` group: the C recursion
//! through the C ABI, linked with the chesscore library this crate depends on.

fn main() {
    println!("cargo:rerun-if-changed=../examples/perft.c");
    println!("cargo:rerun-if-changed=../include/chesscore.h");
    cc::Build::new()
        .file("../examples/perft.c")
        .include("../include")
        .flag("-std=c99")
        .define("main", "chesscore_example_perft_main")
        .compile("example_perft");
}
