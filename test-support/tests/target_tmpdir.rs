//! The folder the helpers write to is the one cargo gives the tests (see `target_tmpdir`).

#[test]
fn target_tmpdir_is_cargos() {
    let cargo = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    assert_eq!(chesscore_test_support::target_tmpdir(), cargo);
}
