//! The engine process's pipes: the thread that reads its lines, writes that survive its death,
//! and the end of its process group.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::mpsc::SyncSender;

use super::protocol::ProtocolError;
use super::Engine;

/// A line the reading thread hands over, or the fault that ended its reading.
pub(super) type Received = Result<String, ProtocolError>;

/// Kills the engine's process group (made at spawn, led by the engine).
pub(super) fn kill_group(child: &Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: `kill` only sends a signal; a negative id names the group, whose leader is our
        // child and not yet reaped, so the id cannot name another process's group.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    }
}

/// Hands the engine's output over line by line until it closes, a line is too long, or the
/// engine is ended. While the queue is full it does not read, so the engine waits to write.
pub(super) fn read_lines(stdout: ChildStdout, sender: SyncSender<Received>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader).take(Engine::MAX_LINE as u64 + 1).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) if buf.len() > Engine::MAX_LINE && buf.last() != Some(&b'\n') => {
                let _ = sender.send(Err(ProtocolError::LineTooLong(Engine::MAX_LINE)));
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if sender.send(Ok(line)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Writes `line` and a line end, with `SIGPIPE` blocked in this thread: a write to an engine
/// that died fails with `EPIPE` instead of raising the signal, and the signal it left pending
/// is taken, so the host's signal dispositions and mask are as they were.
pub(super) fn write_line(pipe: &mut ChildStdin, line: &str) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(line.len() + 1);
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    // SAFETY: sigset_t is plain data, set up by sigemptyset/sigaddset before any use; the
    // calls change only this thread's signal mask (restored below) and take at most the one
    // SIGPIPE the write raised.
    unsafe {
        let mut pipe_signal: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe_signal);
        libc::sigaddset(&mut pipe_signal, libc::SIGPIPE);
        let mut old_mask: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe_signal, &mut old_mask);
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending);
        let was_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let written = pipe.write_all(&bytes).and_then(|()| pipe.flush());
        if !was_pending && matches!(&written, Err(e) if e.kind() == io::ErrorKind::BrokenPipe) {
            let now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
            while libc::sigtimedwait(&pipe_signal, std::ptr::null_mut(), &now) < 0
                && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old_mask, std::ptr::null_mut());
        written
    }
}
