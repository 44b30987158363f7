//! A UCI engine as a child process: the handshake, options, `isready` barriers and searches,
//! every wait bounded by a timeout.

use std::ffi::OsString;
use std::fmt;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::position::{self as engine_position, EnginePosition, UnsupportedVariant};
use super::process::{kill_group, read_lines, write_line, Received};
use super::protocol::{self, CommandTextError, EngineLine, EngineOption, Info, Limits, ProtocolError};
use crate::board::moves::Move;
use crate::position::Position;

/// How to start an engine: a program and its arguments (run directly, no shell), its working
/// directory, and how long any answer may take.
#[derive(Debug, Clone)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// The engine's working directory (`None`: the caller's).
    pub working_dir: Option<PathBuf>,
    /// The longest wait for any answer: `uciok` and `readyok` must come within it; during a
    /// search it bounds the silence between lines that show the search's progress (junk and
    /// `info string` lines do not count), a search bounded by time may last that long beyond its
    /// limit, and after `stop` the best move must come within it.
    pub timeout: Duration,
}

impl EngineCommand {
    /// The longest wait for an answer unless set otherwise.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

    pub fn new(program: impl Into<PathBuf>) -> EngineCommand {
        EngineCommand { program: program.into(), args: Vec::new(), working_dir: None, timeout: Self::DEFAULT_TIMEOUT }
    }
}

/// Why talking to the engine failed. After any of these but `NotStarted` and `InvalidText` the
/// engine process is gone (killed if need be, with every process it started) and every later
/// call gives `Exited`. Each message includes the inner error's, so
/// [`source`](std::error::Error::source) gives none.
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
    /// The engine wrote something that breaks the protocol (a line longer than
    /// [`Engine::MAX_LINE`], say).
    #[error("engine protocol error: {0}")]
    Protocol(ProtocolError),
    /// Text of the caller's that cannot go on a command line (nothing was sent; the engine
    /// goes on).
    #[error("{0}")]
    InvalidText(CommandTextError),
    /// A search of a variant the engine does not play (nothing was sent; the engine goes on).
    #[error("{0}")]
    UnsupportedVariant(UnsupportedVariant),
}

impl From<ProtocolError> for EngineError {
    fn from(error: ProtocolError) -> EngineError {
        EngineError::Protocol(error)
    }
}

impl From<UnsupportedVariant> for EngineError {
    fn from(error: UnsupportedVariant) -> EngineError {
        EngineError::UnsupportedVariant(error)
    }
}

impl From<CommandTextError> for EngineError {
    fn from(error: CommandTextError) -> EngineError {
        EngineError::InvalidText(error)
    }
}

/// How many lines the reading thread queues ahead of the caller: it stops reading while the
/// queue is full, so the engine's output holds at most this many lines of the longest length.
const QUEUED_LINES: usize = 16;

/// How long ending an engine waits for its reading thread, which sees the end of the output
/// at once unless a process that left the engine's process group still holds it.
const READER_GRACE: Duration = Duration::from_millis(200);

/// How often a wait for a line checks whether the engine process has exited.
const EXIT_CHECK: Duration = Duration::from_millis(50);

/// How long `quit` is given before the engine is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// A running UCI engine, after a successful `uci`/`uciok` handshake.
///
/// One thread at a time uses an engine (it is `Send`, not `Sync`); distinct engines are
/// independent. To stop a search or send `ponderhit` from another thread, take an
/// [`EngineControl`] first. The engine runs in a process group of its own: after a fault, and
/// when the engine is dropped (`quit`, a brief wait, then a kill), the whole group is killed,
/// so no process it started (a wrapper script's child, a helper it forked) is left behind, and
/// nothing waits for them. No signal disposition of the host process is changed: writes to an
/// engine that died fail with [`EngineError::Exited`] instead of raising `SIGPIPE`.
///
/// Memory stays bounded whatever the engine writes: a line longer than
/// [`Engine::MAX_LINE`] is a protocol error, and at most a few lines wait to be read.
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
///     let analysis = engine.analyse(game.start(), game.moves(), &limits, None)?;
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
    lines: Receiver<Received>,
    reader: Option<JoinHandle<()>>,
    name: Option<String>,
    author: Option<String>,
    options: Vec<EngineOption>,
    chess960: bool,
    /// The `UCI_Variant` value the engine plays now.
    variant: String,
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

impl<P: EnginePosition> fmt::Debug for Search<'_, P> {
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
    /// The longest line read from an engine, in bytes, line end excluded.
    pub const MAX_LINE: usize = 1 << 20;

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
        // A group of its own, to end every process the engine starts; it also keeps the
        // terminal's Ctrl-C, meant for the host, from killing the engine behind its back.
        process.process_group(0);
        if let Some(dir) = &command.working_dir {
            process.current_dir(dir);
        }
        let mut child = process.spawn().map_err(EngineError::NotStarted)?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        let reader = match thread::Builder::new().name("uci-engine-reader".into()).spawn(|| read_lines(stdout, sender))
        {
            Ok(reader) => reader,
            Err(e) => {
                kill_group(&child);
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::NotStarted(e));
            }
        };
        let mut engine = Engine {
            stdin: EngineControl {
                shared: Arc::new(Mutex::new(Pipe { stdin: child.stdin.take(), stop: None, ponderhit: None })),
            },
            child,
            lines,
            reader: Some(reader),
            name: None,
            author: None,
            options: Vec::new(),
            chess960: false,
            variant: String::new(),
            multipv: 1,
            timeout: command.timeout,
            gone: false,
        };
        engine.send("uci")?;
        let deadline = later(Instant::now(), engine.timeout);
        let start = Position::startpos();
        loop {
            match protocol::parse_line(&engine.receive(deadline)?, &start) {
                Ok(EngineLine::UciOk) => {
                    engine.variant = engine_position::default_variant(&engine.options);
                    return Ok(engine);
                }
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
    /// castling notation of later commands. Text that could end the command line early is
    /// refused with [`EngineError::InvalidText`] before anything is sent (see
    /// [`protocol::check_command_text`]), as is a name holding the word `name` or `value`.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), EngineError> {
        self.send(&protocol::setoption_command(name, value)?)?;
        if name.eq_ignore_ascii_case("UCI_Chess960") {
            self.chess960 = value.is_some_and(|v| v.eq_ignore_ascii_case("true"));
        }
        if let Some(value) = value.filter(|_| name.eq_ignore_ascii_case("UCI_Variant")) {
            self.variant = value.to_string();
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

    /// `isready`, waiting for `readyok` (within the timeout, whatever else the engine writes).
    pub fn is_ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = later(Instant::now(), self.timeout);
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
    /// main line of a [`Game`](crate::Game) are: `game.moves()`.
    ///
    /// `start` is a chess [`Position`] or a variant's
    /// [`VariantPosition`](crate::variant::VariantPosition). When the engine plays other rules
    /// than the position's, `UCI_Variant` is set first (back to `chess` for a chess position);
    /// an engine that declares no such option, or whose option does not list the variant, is
    /// refused with [`EngineError::UnsupportedVariant`] before anything is sent. Chess960 is
    /// `chess` with `UCI_Chess960`, which the caller sets.
    pub fn analyse<P: EnginePosition>(
        &mut self,
        start: &P,
        moves: impl IntoIterator<Item = Move>,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Analysis, EngineError> {
        self.search(start, moves, limits, multipv)?.finish()
    }

    /// [`Engine::analyse`] of a position without history.
    pub fn analyse_position<P: EnginePosition>(
        &mut self,
        pos: &P,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Analysis, EngineError> {
        self.analyse(pos, [], limits, multipv)
    }

    /// Starts a search whose `info` lines arrive one by one, through the returned [`Search`];
    /// the arguments are [`Engine::analyse`]'s.
    pub fn search<P: EnginePosition>(
        &mut self,
        start: &P,
        moves: impl IntoIterator<Item = Move>,
        limits: &Limits,
        multipv: Option<u32>,
    ) -> Result<Search<'_, P>, EngineError> {
        if let Some((name, value)) =
            engine_position::variant_setting(&self.options, &self.variant, start.uci_variant())?
        {
            let (name, value) = (name.to_string(), value.to_string());
            self.set_option(&name, Some(&value))?;
        }
        if let Some(k) = multipv.filter(|&k| k != self.multipv) {
            self.set_option("MultiPV", Some(&k.to_string()))?;
        }
        let mut root = start.clone();
        let moves = moves.into_iter().inspect(|&mv| root.play(mv));
        let position = protocol::position_command(start, moves, self.chess960);
        self.send(&position)?;
        self.send(&protocol::go_command(limits, self.chess960))?;
        let began = Instant::now();
        let after_ponderhit = Limits { ponder: false, ..limits.clone() }.time_bound(root.turn());
        let time_bound = limits.time_bound(root.turn());
        Ok(Search {
            silence: later(began, self.timeout),
            engine: self,
            root,
            began,
            time_bound,
            after_ponderhit,
            lines: Vec::new(),
            best: None,
            done: false,
        })
    }

    /// A handle that sends `stop` and `ponderhit` from any thread, also while this engine
    /// searches in another.
    pub fn control(&self) -> EngineControl {
        self.stdin.clone()
    }

    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        self.write(|pipe| pipe.send(command))
    }

    /// Sends `stop` or `ponderhit` through the shared pipe (marking when, for the deadlines).
    fn send_control(&mut self, command: Control) -> Result<(), EngineError> {
        self.write(|pipe| pipe.control(command))
    }

    /// A write to the engine; a failure ends the process.
    fn write(&mut self, write: impl FnOnce(&EngineControl) -> Result<(), EngineError>) -> Result<(), EngineError> {
        if self.gone {
            return Err(EngineError::Exited);
        }
        let sent = write(&self.stdin);
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
        // In slices, to notice an engine that died while a process it started keeps its output
        // open (no end of file comes then).
        let received = loop {
            // Checked before taking a line: an engine whose lines keep the queue full must not
            // keep the wait going past its deadline.
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break Err(RecvTimeoutError::Timeout);
            }
            match self.lines.recv_timeout(left.min(EXIT_CHECK)) {
                Err(RecvTimeoutError::Timeout) if left > EXIT_CHECK && self.has_exited() => {
                    // What it wrote before it died is in the pipe already.
                    break self.lines.recv_timeout(EXIT_CHECK).map_err(|_| RecvTimeoutError::Disconnected);
                }
                Err(RecvTimeoutError::Timeout) if left > EXIT_CHECK => continue,
                received => break received,
            }
        };
        match received {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(fault)) => {
                self.end_now();
                Err(EngineError::Protocol(fault))
            }
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

    /// Marks the engine gone and kills its process group (an engine that stopped answering
    /// cannot be trusted with the next command), without waiting on any process that left it.
    fn end_now(&mut self) {
        self.gone = true;
        self.stdin.close();
        // Before the engine is reaped, so that its id still names its group.
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A reader blocked on a full queue sees the queue gone and returns.
        self.lines = mpsc::sync_channel(0).1;
        if let Some(reader) = self.reader.take() {
            let waited = Instant::now();
            while !reader.is_finished() && waited.elapsed() < READER_GRACE {
                thread::sleep(Duration::from_millis(1));
            }
            // Otherwise a process that left the group holds the output: the reader ends with it.
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
    }

    /// Whether the engine process has exited (it is not reaped, so its id keeps naming its group).
    fn has_exited(&self) -> bool {
        let pid: libc::id_t = self.child.id();
        // SAFETY: an all-zero `siginfo_t` is a valid value of this plain C struct.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `waitid` writes only to `info`; WNOWAIT leaves the child to `end_now`'s wait.
        let status =
            unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) };
        // SAFETY: `waitid` succeeded, so `info` holds a child's state or zeros.
        status != 0 || unsafe { info.si_pid() } != 0
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
        while Instant::now() < deadline && !self.has_exited() {
            thread::sleep(Duration::from_millis(5));
        }
        self.end_now();
    }
}

/// `Instant + Duration` without the panic of an overflow: a far-off instant instead.
fn later(from: Instant, wait: Duration) -> Instant {
    from.checked_add(wait).unwrap_or_else(|| from + Duration::from_secs(1 << 30))
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
/// answers the expected reply of a `go ponder`. The search ends as usual with `bestmove`, which
/// must then come within the engine's timeout (after `ponderhit`, within the search's time
/// limits and the timeout). After the engine is gone, both give [`EngineError::Exited`].
#[derive(Debug, Clone)]
pub struct EngineControl {
    shared: Arc<Mutex<Pipe>>,
}

/// The engine's input and when the search commands were last sent, for the search's deadlines.
#[derive(Debug)]
struct Pipe {
    /// `None` once the engine is gone.
    stdin: Option<ChildStdin>,
    stop: Option<Instant>,
    ponderhit: Option<Instant>,
}

/// The commands that any thread may send during a search.
#[derive(Debug, Clone, Copy)]
enum Control {
    Stop,
    Ponderhit,
}

impl EngineControl {
    /// `stop`: the engine ends the search and sends `bestmove` soon.
    pub fn stop(&self) -> Result<(), EngineError> {
        self.control(Control::Stop)
    }

    /// `ponderhit`: the expected reply was played; the pondering search goes on as a normal
    /// one, with the limits of its `go`.
    pub fn ponderhit(&self) -> Result<(), EngineError> {
        self.control(Control::Ponderhit)
    }

    fn control(&self, command: Control) -> Result<(), EngineError> {
        let mut pipe = self.lock();
        let (text, sent) = match command {
            Control::Stop => ("stop", &mut pipe.stop),
            Control::Ponderhit => ("ponderhit", &mut pipe.ponderhit),
        };
        *sent = Some(Instant::now());
        let stdin = pipe.stdin.as_mut().ok_or(EngineError::Exited)?;
        write_line(stdin, text).map_err(|_| EngineError::Exited)
    }

    fn send(&self, command: &str) -> Result<(), EngineError> {
        let stdin = &mut self.lock().stdin;
        write_line(stdin.as_mut().ok_or(EngineError::Exited)?, command).map_err(|_| EngineError::Exited)
    }

    /// When `stop` and `ponderhit` were last sent.
    fn sent_at(&self) -> (Option<Instant>, Option<Instant>) {
        let pipe = self.lock();
        (pipe.stop, pipe.ponderhit)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pipe> {
        // A panic while writing leaves the pipe as usable as before: poison is ignored.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn close(&self) {
        self.lock().stdin.take();
    }
}

/// A running search: an iterator over its `info` lines as they arrive, which ends at
/// `bestmove`. Dropping it unfinished stops the search and waits for its `bestmove`.
///
/// Every wait has a deadline that no output of the engine moves: the next line showing the
/// search's progress must come within the engine's timeout of the last one; a search bounded
/// by time must end within its time and the timeout; after `stop` (from here or from an
/// [`EngineControl`]) the best move must come within the timeout. Past a deadline the engine
/// is killed and the search gives [`EngineError::Timeout`].
///
/// `P` is the searched position's type: chess's [`Position`] unless the search is a variant's.
pub struct Search<'a, P: EnginePosition = Position> {
    engine: &'a mut Engine,
    root: P,
    began: Instant,
    /// When the next line showing progress is due.
    silence: Instant,
    /// How long the search may last by its clock limits, if they bound it.
    time_bound: Option<Duration>,
    /// The same for a pondering search after `ponderhit`.
    after_ponderhit: Option<Duration>,
    lines: Vec<Info>,
    best: Option<(Option<Move>, Option<Move>)>,
    done: bool,
}

impl<P: EnginePosition> Search<'_, P> {
    /// The searched position (moves of the infos are legal there).
    pub fn position(&self) -> &P {
        &self.root
    }

    /// `stop`: the engine ends the search and sends `bestmove` soon.
    pub fn stop(&mut self) -> Result<(), EngineError> {
        if self.done {
            return Ok(());
        }
        self.engine.send_control(Control::Stop)
    }

    /// `ponderhit`: the expected reply was played; the pondering search goes on as a normal
    /// one, with the limits of its `go`.
    pub fn ponderhit(&mut self) -> Result<(), EngineError> {
        self.engine.send_control(Control::Ponderhit)
    }

    /// The earliest of the search's deadlines.
    fn deadline(&self) -> Instant {
        let timeout = self.engine.timeout;
        let mut deadline = self.silence;
        if let Some(bound) = self.time_bound {
            deadline = deadline.min(later(self.began, bound.saturating_add(timeout)));
        }
        let (stop, ponderhit) = self.engine.stdin.sent_at();
        if let Some(stop) = stop.filter(|&sent| sent >= self.began) {
            deadline = deadline.min(later(stop, timeout));
        }
        if let (Some(hit), Some(bound)) = (ponderhit.filter(|&sent| sent >= self.began), self.after_ponderhit) {
            deadline = deadline.min(later(hit, bound.saturating_add(timeout)));
        }
        deadline
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
            let line = self.engine.receive(self.deadline())?;
            match protocol::parse_line(&line, &self.root) {
                Ok(EngineLine::Info(info)) => {
                    if shows_progress(&info) {
                        self.silence = later(Instant::now(), self.engine.timeout);
                    }
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

/// Whether an info line tells of the search (any field but `string` and unknown words): only
/// those hold off the timeout, so that junk cannot keep a search waiting.
fn shows_progress(info: &Info) -> bool {
    info.depth.is_some()
        || info.seldepth.is_some()
        || info.time.is_some()
        || info.nodes.is_some()
        || !info.pv.is_empty()
        || info.multipv.is_some()
        || info.score.is_some()
        || info.wdl.is_some()
        || info.currmove.is_some()
        || info.currmovenumber.is_some()
        || info.hashfull.is_some()
        || info.nps.is_some()
        || info.tbhits.is_some()
        || info.sbhits.is_some()
        || info.cpuload.is_some()
        || !info.refutation.is_empty()
        || info.currline.is_some()
}

/// An info's MultiPV line number (1 when the engine does not say).
fn multipv(info: &Info) -> u32 {
    info.multipv.unwrap_or(1)
}

impl<P: EnginePosition> Iterator for Search<'_, P> {
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

impl<P: EnginePosition> Drop for Search<'_, P> {
    fn drop(&mut self) {
        if !self.done && self.stop().is_ok() {
            for _ in self.by_ref() {}
        }
    }
}
