//! A UCI engine as a child process: the handshake, options, `isready` barriers and searches,
//! every wait bounded by a timeout.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::protocol::{self, EngineLine, EngineOption, Info, Limits};
use crate::moves::Move;
use crate::position::Position;

/// How to start an engine: a program and its arguments (run directly, no shell), its working
/// directory, and how long any answer may take.
#[derive(Debug, Clone)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The engine's working directory (`None`: the caller's).
    pub working_dir: Option<PathBuf>,
    /// The longest wait for any answer: `uciok`, `readyok`, and during a search the next line
    /// (a search bounded by time may last that long beyond its limit).
    pub timeout: Duration,
}

impl EngineCommand {
    /// The longest wait for an answer unless set otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

    pub fn new(program: impl Into<PathBuf>) -> EngineCommand {
        EngineCommand { program: program.into(), args: Vec::new(), working_dir: None, timeout: Self::DEFAULT_TIMEOUT }
    }
}

/// Why talking to the engine failed. After any of these but `NotStarted` the engine process
/// is gone (killed if need be) and every later call gives `Exited`. Each message includes the
/// inner error's, so [`source`](std::error::Error::source) gives none.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The program could not be run (the system's reason).
    #[error("cannot start the engine: {0}")]
    NotStarted(io::Error),
    /// The engine exited, crashed or closed its input.
    #[error("the engine exited")]
    Exited,
    /// No answer came within the timeout.
    #[error("the engine did not answer within {0:?}")]
    Timeout(Duration),
    /// The engine wrote something that breaks the protocol.
    #[error("engine protocol error: {0}")]
    Protocol(protocol::ProtocolError),
}

impl From<protocol::ProtocolError> for EngineError {
    fn from(error: protocol::ProtocolError) -> EngineError {
        EngineError::Protocol(error)
    }
}

/// The longest line kept whole: a longer one (junk without newlines) is cut into pieces.
const MAX_LINE: u64 = 1 << 20;

/// How long `quit` is given before the engine is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A running UCI engine, after a successful `uci`/`uciok` handshake.
///
/// One thread at a time uses an engine (it is `Send`, not `Sync`); distinct engines are
/// independent. To stop a search or send `ponderhit` from another thread, take an
/// [`EngineControl`] first. Dropping it sends `quit`, waits briefly, then kills the process: no
/// child process or descriptor is left behind.
///
/// Playing a game against an engine, a tenth of a second a move:
///
/// ```no_run
/// use std::time::Duration;
/// use chesscore_core::engine::{Engine, EngineCommand, Limits};
/// use chesscore_core::{Game, Outcome, San};
///
/// let mut engine = Engine::start(&EngineCommand::new("stockfish"))?;
/// engine.set_option("Threads", Some("2"))?;
/// engine.new_game()?;
/// let mut game = Game::default();
/// let limits = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
/// while game.outcome() == Outcome::Ongoing {
///     let analysis = engine.analyse(game.start(), game.moves().iter().copied(), &limits, None)?;
///     let Some(mv) = analysis.best_move else { break };
///     println!("{}", San::from_move(game.position(), mv)?);
///     game.push(mv)?;
/// }
/// println!("{}", game.to_pgn());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    child: Child,
    stdin: EngineControl,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    name: Option<String>,
    author: Option<String>,
    options: Vec<EngineOption>,
    chess960: bool,
    multipv: u32,
    timeout: Duration,
    gone: bool,
}

/// The process and what the handshake told, not the pipes.
impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine")
            .field("pid", &self.child.id())
            .field("name", &self.name)
            .field("options", &self.options.len())
            .field("chess960", &self.chess960)
            .field("gone", &self.gone)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Search")
            .field("engine", &self.engine)
            .field("root", &self.root)
            .field("lines", &self.lines.len())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// Starts the engine and does the `uci` handshake: its id and options are read until
    /// `uciok`, which must come within the command's timeout.
    pub fn start(command: &EngineCommand) -> Result<Engine, EngineError> {
        // Checked first too: where spawning cannot report a failed `exec` (under valgrind, say),
        // a missing program or directory would otherwise look like an engine that exited.
        let missing = |what: &str, path: &std::path::Path| {
            EngineError::NotStarted(io::Error::new(io::ErrorKind::NotFound, format!("no {what} {}", path.display())))
        };
        if command.program.components().count() > 1 && !command.program.is_file() {
            return Err(missing("program", &command.program));
        }
        if let Some(dir) = command.working_dir.as_deref().filter(|dir| !dir.is_dir()) {
            return Err(missing("directory", dir));
        }
        let mut process = Command::new(&command.program);
        process.args(&command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &command.working_dir {
            process.current_dir(dir);
        }
        let mut child = process.spawn().map_err(EngineError::NotStarted)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::channel();
        let reader = match thread::Builder::new().name("uci-engine-reader".into()).spawn(|| read_lines(stdout, sender))
        {
            Ok(reader) => reader,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::NotStarted(e));
            }
        };
        let mut engine = Engine {
            stdin: EngineControl { stdin: Arc::new(Mutex::new(child.stdin.take())) },
            child,
            lines,
            reader: Some(reader),
            name: None,
            author: None,
            options: Vec::new(),
            chess960: false,
            multipv: 1,
            timeout: command.timeout,
            gone: false,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + engine.timeout;
        let start = Position::startpos();
        loop {
            match protocol::parse_line(&engine.receive(deadline)?, &start) {
                Ok(EngineLine::UciOk) => return Ok(engine),
                Ok(EngineLine::IdName(name)) => engine.name = Some(name),
                Ok(EngineLine::IdAuthor(author)) => engine.author = Some(author),
                Ok(EngineLine::Option(option)) => engine.options.push(option),
                // Junk and malformed options before `uciok` are not the handshake's business.
                _ => {}
            }
        }
    }

    /// `id name`, if the engine gave one.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// `id author`, if the engine gave one.
    pub fn author(&self) -> Option<&str> {
        self.author.as_deref()
    }

    /// The options the engine declared, in its order.
    pub fn options(&self) -> &[EngineOption] {
        &self.options
    }

    /// The process id (to watch it from outside).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether castling is written king-takes-rook (`UCI_Chess960` set on).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// `setoption`; `value` is `None` for a button. Setting `UCI_Chess960` also switches the
    /// castling notation of later commands.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        self.send(&protocol::setoption_command(name, value))?;
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            self.chess960 = value.is_some_and(|v| v.eq_ignore_ascii_case("true"));
        }
        if name.eq_ignore_ascii_case("MultiPV") {
            self.multipv = value.and_then(|v| v.parse().ok()).unwrap_or(1);
        }
        Ok(())
    }

    /// `debug on|off`.
    pub fn set_debug(&mut self, on: bool) -> Result<(), EngineError> {
        self.send(protocol::debug_command(on))
    }

    /// `isready`, waiting for `readyok`.
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        loop {
            if let Ok(EngineLine::ReadyOk) = protocol::parse_line(&self.receive(deadline)?, &Position::startpos()) {
                return Ok(());
            }
        }
    }

    /// `ucinewgame` then an `isready` barrier.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.is_ready()
    }

    /// Searches the position that `moves` lead to from `start` (the moves give the engine the
    /// repetition history) and waits for `bestmove`. `multipv` sets the `MultiPV` option first
    /// when it differs from the engine's. The moves must be legal in turn, as those of a
    /// [`Game`](crate::Game) or of a record's main line are: `game.moves().iter().copied()`,
    /// `record.game().moves()`.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: impl IntoIterator<Item = Move>,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Analysis, EngineError> {
        self.search(start, moves, limits, multipv)?.finish()
    }

    /// [`Engine::analyse`] of a position without history.
    pub fn analyse_position(
        &mut self,
        pos: &Position,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Analysis, EngineError> {
        self.analyse(pos, [], limits, multipv)
    }

    /// Starts a search whose `info` lines arrive one by one, through the returned [`Search`];
    /// the arguments are [`Engine::analyse`]'s.
    pub fn search(
        &mut self,
        start: &Position,
        moves: impl IntoIterator<Item = Move>,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Search<'_>, EngineError> {
        if let Some(k) = multipv.filter(|&k| k != self.multipv) {
            self.set_option("MultiPV", Some(&k.to_string()))?;
        }
        let mut root = *start;
        let moves = moves.into_iter().inspect(|&mv| root.play_known(mv));
        let position = protocol::position_command(start, moves, self.chess960);
        self.send(&position)?;
        self.send(&protocol::go_command(limits, self.chess960))?;
        let deadline = limits.time_bound(root.turn()).map(|t| Instant::now() + t + self.timeout);
        Ok(Search { engine: self, root, deadline, lines: Vec::new(), best: None, done: false })
    }

    /// A handle that sends `stop` and `ponderhit` from any thread, also while this engine
    /// searches in another.
    pub fn control(&self) -> EngineControl {
        self.stdin.clone()
    }

    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        if self.gone {
            return Err(EngineError::Exited);
        }
        let sent = self.stdin.send(command);
        if sent.is_err() {
            self.end_now();
        }
        sent
    }

    /// The next line, waiting until `deadline`. A fault ends the process.
    fn receive(&mut self, deadline: Instant) -> Result<String, EngineError> {
        if self.gone {
            return Err(EngineError::Exited);
        }
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.end_now();
                Err(EngineError::Timeout(self.timeout))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.end_now();
                Err(EngineError::Exited)
            }
        }
    }

    /// Marks the engine gone, killing its process if it still runs (an engine that stopped
    /// answering cannot be trusted with the next command).
    fn end_now(&mut self) {
        self.gone = true;
        self.stdin.close();
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The process is dead, so its end of the pipe is closed and the reader returns.
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.gone {
            return;
        }
        let _ = self.stdin.send("quit");
        self.stdin.close();
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        self.end_now();
    }
}

/// Sends the engine's output line by line until it closes (or the engine is dropped).
fn read_lines(stdout: ChildStdout, sender: Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if sender.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

/// A search's result: the best move, the expected reply, and the last `info` of each MultiPV
/// line, in line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// `None` when the engine had no move (`bestmove (none)` or `0000`: mate or stalemate).
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub lines: Vec<Info>,
}

/// Sends `stop` and `ponderhit` to an engine from any thread (it is `Send`, `Sync` and cheap to
/// clone), for a search running in another thread: a GUI stops an infinite analysis, or
/// answers the expected reply of a `go ponder`. The search ends as usual with `bestmove`. After
/// the engine is gone, both give [`EngineError::Exited`].
#[derive(Debug, Clone)]
pub struct EngineControl {
    /// `None` once the engine is gone.
    stdin: Arc<Mutex<Option<ChildStdin>>>,
}

impl EngineControl {
    /// `stop`: the engine ends the search and sends `bestmove` soon.
    pub fn stop(&self) -> Result<(), EngineError> {
        self.send("stop")
    }

    /// `ponderhit`: the expected reply was played; the pondering search goes on as a normal
    /// one, with the limits of its `go`.
    pub fn ponderhit(&self) -> Result<(), EngineError> {
        self.send("ponderhit")
    }

    fn send(&self, command: &str) -> Result<(), EngineError> {
        // A panic while writing leaves the pipe as usable as before: poison is ignored.
        let mut stdin = self.stdin.lock().unwrap_or_else(PoisonError::into_inner);
        let pipe = stdin.as_mut().ok_or(EngineError::Exited)?;
        writeln!(pipe, "{command}").and_then(|()| pipe.flush()).map_err(|_| EngineError::Exited)
    }

    fn close(&self) {
        self.stdin.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

/// A running search: an iterator over its `info` lines as they arrive, which ends at
/// `bestmove`. Dropping it unfinished stops the search and waits for its `bestmove`.
pub struct Search<'a> {
    engine: &'a mut Engine,
    root: Position,
    deadline: Option<Instant>,
    lines: Vec<Info>,
    best: Option<(Option<Move>, Option<Move>)>,
    done: bool,
}

impl Search<'_> {
    /// The searched position (moves of the infos are legal there).
    pub fn position(&self) -> &Position {
        &self.root
    }

    /// `stop`: the engine ends the search and sends `bestmove` soon.
    pub fn stop(&mut self) -> Result<(), EngineError> {
        if self.done {
            return Ok(());
        }
        self.deadline = Some(Instant::now() + self.engine.timeout);
        self.engine.send("stop")
    }

    /// `ponderhit`: the expected reply was played; the pondering search goes on as a normal
    /// one, with the limits of its `go` (each wait is then bounded by the timeout).
    pub fn ponderhit(&mut self) -> Result<(), EngineError> {
        self.engine.send("ponderhit")
    }

    /// Reads the rest of the search (its infos are still kept as lines) and gives its result.
    pub fn finish(mut self) -> Result<Analysis, EngineError> {
        for info in self.by_ref() {
            info?;
        }
        let (best_move, ponder_move) = self.best.take().ok_or(EngineError::Exited)?;
        let mut lines = std::mem::take(&mut self.lines);
        lines.sort_by_key(multipv);
        Ok(Analysis { best_move, ponder_move, lines })
    }

    fn next_info(&mut self) -> Result<Option<Info>, EngineError> {
        loop {
            let silence = Instant::now() + self.engine.timeout;
            let deadline = self.deadline.map_or(silence, |hard| hard.min(silence));
            let line = self.engine.receive(deadline)?;
            match protocol::parse_line(&line, &self.root) {
                Ok(EngineLine::Info(info)) => {
                    if !info.pv.is_empty() || info.score.is_some() {
                        match self.lines.iter_mut().find(|line| multipv(line) == multipv(&info)) {
                            Some(line) => *line = (*info).clone(),
                            None => self.lines.push((*info).clone()),
                        }
                    }
                    return Ok(Some(*info));
                }
                Ok(EngineLine::BestMove { best, ponder }) => {
                    self.best = Some((best, ponder));
                    return Ok(None);
                }
                Err(e) => {
                    self.engine.end_now();
                    return Err(e.into());
                }
                Ok(_) => {}
            }
        }
    }
}

/// An info's MultiPV line number (1 when the engine does not say).
fn multipv(info: &Info) -> u32 {
    info.multipv.unwrap_or(1)
}

impl Iterator for Search<'_> {
    type Item = Result<Info, EngineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let next = self.next_info();
        self.done = !matches!(next, Ok(Some(_)));
        next.transpose()
    }
}

impl Drop for Search<'_> {
    fn drop(&mut self) {
        if !self.done && self.stop().is_ok() {
            for _ in self.by_ref() {}
        }
    }
}
