//! Driving UCI engines: the protocol as pure functions ([`protocol`]: the GUI's commands
//! written, the engine's lines read into typed values with their moves checked) and a client
//! that runs an engine as a child process ([`Engine`]), with a timeout on every wait.
//!
//! ```no_run
//! use chesscore_core::engine::{Engine, EngineCommand, Limits};
//! use chesscore_core::Position;
//!
//! let mut engine = Engine::start(&EngineCommand::new("stockfish"))?;
//! let limits = Limits { depth: Some(12), ..Limits::default() };
//! let analysis = engine.analyse_position(&Position::startpos(), &limits, Some(2))?;
//! println!("{:?} {:?}", analysis.best_move, analysis.lines[0].score);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod client;
mod position;
mod process;
pub mod protocol;

pub use client::{Analysis, Engine, EngineCommand, EngineControl, EngineError, Search};
pub(crate) use position::sealed;
pub use position::{EnginePosition, UnsupportedVariant};
pub use protocol::{
    Bound, CommandTextError, EngineLine, EngineOption, Info, Limits, OptionType, ProtocolError, Score, Wdl,
};
