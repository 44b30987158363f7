//! The commands that drive UCI engines: `analyse`, `epdtest` and `match`, one module each, over
//! the engine choice they share.

use std::path::{Path, PathBuf};

use chesscore_core::engine::{Engine, EngineCommand};
use clap::Args;

use crate::output::Failure;
pub(crate) use analyse::{analyse, AnalyseArgs};
pub(crate) use epdtest::{epdtest, EpdtestArgs};
pub(crate) use play_match::{play_match, MatchArgs};

mod analyse;
mod epdtest;
mod play_match;

/// The engine to run and its thread count.
#[derive(Args)]
pub(crate) struct EngineArgs {
    /// The engine program (default: `stockfish` on PATH).
    #[arg(long, value_name = "PATH")]
    pub(super) engine: Option<PathBuf>,
    /// The engine's `Threads` option.
    #[arg(long, value_name = "N")]
    pub(super) threads: Option<u32>,
}

/// Where `stockfish` is when no engine is named: on PATH, else where Debian installs it.
pub(super) fn default_engine() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("stockfish"))
        .find(|path| path.is_file());
    on_path.unwrap_or_else(|| {
        let debian = Path::new("/usr/games/stockfish");
        if debian.is_file() {
            debian.to_path_buf()
        } else {
            PathBuf::from("stockfish")
        }
    })
}

/// Starts an engine and sets the thread count.
pub(super) fn start(path: &Path, threads: Option<u32>) -> Result<Engine, Failure> {
    let mut engine = Engine::start(&EngineCommand::new(path)).map_err(|e| engine_failure(path, &e))?;
    if let Some(threads) = threads {
        engine.set_option("Threads", Some(&threads.to_string())).map_err(|e| engine_failure(path, &e))?;
    }
    Ok(engine)
}

pub(super) fn engine_failure(path: &Path, error: &dyn std::fmt::Display) -> Failure {
    format!("engine {}: {error}", path.display()).into()
}
