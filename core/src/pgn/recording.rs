//! Games' events as a reader tells them to a visitor, kept in a few buffers to be told again
//! later, in another thread: the threads of a [`ParallelReader`](super::ParallelReader) record
//! the games they read, and the thread that takes the games builds their records from the
//! recordings, so that a record is allocated by the thread that receives it (and most often
//! freed there). The buffers are reused from one recording to the next: recording a game
//! allocates nothing once they have grown to hold as much.

use std::collections::TryReserveError;

use crate::board::moves::Move;
use crate::fallible::{try_room, try_room_str};
use crate::game::Outcome;
use crate::position::Position;
use crate::variant::{Variant, VariantPosition};

use super::builder::Rebuild;
use super::error::{Location, PgnError, PgnWarning};
use super::reader::PgnReader;
use super::source::Source;
use super::tokenizer::MAX_TOKEN_LEN;
use super::visitor::{Flow, Visitor};

/// An event of a game; its texts, positions and warnings are kept in order beside the events.
#[derive(Debug, Clone, Copy)]
enum Event {
    BeginGame,
    /// A tag pair: its name and its value are the next two texts.
    Tag,
    /// The next position is the start position.
    BeginMovetext,
    /// The next variant position is the start position of a variant game.
    BeginVariantMovetext,
    /// A move, and the length of its SAN as written, the next bytes of text (no text ends
    /// there).
    San(Move, u8),
    Nag(u8),
    /// A comment, the next text.
    Comment,
    /// The next warning.
    Warning,
    BeginVariation,
    EndVariation,
    EndGame(Option<Outcome>),
}

/// How a game recorded ended.
#[derive(Debug)]
struct Ending {
    /// Where its events end.
    events: usize,
    /// `Err` for a broken game: what was read of it is its events.
    read: Result<(), PgnError>,
    /// Memory for its events ran out: the later ones were not recorded.
    out_of_memory: bool,
    /// The game's number and where its reader stood after it (where an error of running out of
    /// memory is placed).
    game: u64,
    end: Location,
}

/// Games recorded one after the other, then replayed in the same order. Cleared, it keeps its
/// buffers.
#[derive(Debug, Default)]
pub(super) struct Recording {
    events: Vec<Event>,
    /// The texts, one after the other, and where each but the moves' ends.
    text: String,
    text_ends: Vec<usize>,
    /// The start positions. (The positions after the moves are not kept: the record makes
    /// those of its main line, from the moves, more cheaply than 128 bytes a move would go
    /// from thread to thread.)
    positions: Vec<Position>,
    /// The start positions of the variant games.
    variant_positions: Vec<VariantPosition>,
    warnings: Vec<PgnWarning>,
    games: Vec<Ending>,
    /// What the next replay starts from.
    replayed: Replayed,
}

/// How much of a recording was replayed: the games, and their events, text (bytes, and the
/// ends of texts), positions (of chess and variant games) and warnings.
#[derive(Debug, Default, Clone, Copy)]
struct Replayed {
    games: usize,
    events: usize,
    text: usize,
    text_ends: usize,
    positions: usize,
    variant_positions: usize,
    warnings: usize,
}

impl Recording {
    /// How many games it holds.
    pub(super) fn len(&self) -> usize {
        self.games.len()
    }

    /// Forgets every game, keeping the buffers.
    pub(super) fn clear(&mut self) {
        self.events.clear();
        self.text.clear();
        self.text_ends.clear();
        self.positions.clear();
        self.variant_positions.clear();
        self.warnings.clear();
        self.games.clear();
        self.replayed = Replayed::default();
    }

    /// Reads the next game of `reader` (as [`PgnReader::read_game`] does) into the recording,
    /// the games of the lichess variants too when `variants` is set (as
    /// [`PgnReader::next_any_game`] reads them); false at the end of the input.
    pub(super) fn record_game<S: Source>(&mut self, reader: &mut PgnReader<S>, variants: bool) -> bool {
        let mut recorder = Recorder { recording: self, out_of_memory: false, variants };
        let read = match reader.read_game(&mut recorder) {
            Ok(Some(())) => Ok(()),
            Ok(None) => return false,
            Err(e) => Err(e),
        };
        let out_of_memory = recorder.out_of_memory;
        let (game, end) = (reader.games_read(), reader.location());
        self.games.push(Ending { events: self.events.len(), read, out_of_memory, game, end });
        true
    }

    /// Replays the next game into `builder` and gives what [`PgnReader::next_game`] (or
    /// [`PgnReader::next_any_game`], as the builder's records are) gives for it, its game number
    /// counted after `games_before` games; `None` once every game was replayed.
    pub(super) fn replay<R: Rebuild>(
        &mut self,
        builder: &mut R,
        games_before: u64,
    ) -> Option<Result<R::Record, PgnError>> {
        let Recording { events, text, text_ends, positions, variant_positions, warnings, games, replayed: at } = self;
        let ending = games.get_mut(at.games)?;
        at.games += 1;
        let text = &**text;
        let next_text = |at: &mut Replayed| {
            let start = at.text;
            at.text = text_ends[at.text_ends];
            at.text_ends += 1;
            &text[start..at.text]
        };
        let mut output = None;
        for &event in &events[at.events..ending.events] {
            match event {
                Event::BeginGame => builder.begin_game(),
                Event::Tag => {
                    let name = next_text(at);
                    builder.tag(name, next_text(at));
                }
                Event::BeginMovetext => {
                    builder.begin_movetext(&positions[at.positions]);
                    at.positions += 1;
                }
                Event::BeginVariantMovetext => {
                    builder.begin_variant_movetext(&variant_positions[at.variant_positions]);
                    at.variant_positions += 1;
                }
                Event::San(mv, len) => {
                    let san = &text[at.text..at.text + usize::from(len)];
                    let _ = builder.replay_move(san, mv);
                    at.text += usize::from(len);
                }
                Event::Nag(nag) => builder.nag(nag),
                Event::Comment => builder.comment(next_text(at)),
                Event::Warning => {
                    builder.warning(warnings[at.warnings]);
                    at.warnings += 1;
                }
                Event::BeginVariation => {
                    let _ = builder.begin_variation();
                }
                Event::EndVariation => builder.end_variation(),
                Event::EndGame(result) => output = Some(builder.end_game(result)),
            }
        }
        at.events = ending.events;
        if ending.out_of_memory {
            // The rest of the game was not recorded: it has no record.
            builder.drop_game();
            output = None;
        }
        let read = match std::mem::replace(&mut ending.read, Ok(())) {
            // `None`: the builder ran out of memory, or the recording did.
            Ok(()) => Ok(Some(output.flatten())),
            Err(mut e) => {
                e.game += games_before;
                Err(e)
            }
        };
        let (game, end) = (games_before + ending.game, ending.end);
        let finished = builder.finish(read, || (game, end));
        Some(finished.map(|record| record.expect("a game recorded was read")))
    }
}

/// The visitor that records a game's events into a recording. Every event is recorded whole or
/// not at all; once memory runs out, no more are, and the rest of the game is skipped where the
/// record builder would skip it.
struct Recorder<'a> {
    recording: &'a mut Recording,
    out_of_memory: bool,
    /// The games of the lichess variants are read too.
    variants: bool,
}

impl Recorder<'_> {
    /// Runs `add` unless memory already ran out for this game, and notes when it runs out.
    fn add(&mut self, add: impl FnOnce(&mut Recording) -> Result<(), TryReserveError>) -> Flow {
        if !self.out_of_memory && add(self.recording).is_err() {
            self.out_of_memory = true;
        }
        if self.out_of_memory {
            Flow::Skip
        } else {
            Flow::Continue
        }
    }
}

impl Recording {
    /// Room for an event with `texts` texts (but a move's) of `len` bytes in all, and
    /// `positions` positions.
    #[inline(always)]
    fn reserve(&mut self, texts: usize, len: usize, positions: usize) -> Result<(), TryReserveError> {
        try_room(&mut self.events, 1)?;
        try_room(&mut self.text_ends, texts)?;
        try_room_str(&mut self.text, len)?;
        try_room(&mut self.positions, positions)
    }

    /// Adds a text (but a move's), room made for it.
    #[inline(always)]
    fn push_text(&mut self, text: &str) {
        self.text.push_str(text);
        self.text_ends.push(self.text.len());
    }

    /// Adds an event without text or position.
    #[inline(always)]
    fn push_event(&mut self, event: Event) -> Result<(), TryReserveError> {
        try_room(&mut self.events, 1)?;
        self.events.push(event);
        Ok(())
    }
}

impl Recorder<'_> {
    /// A move (of chess or of a variant: replaying tells them apart by the start position
    /// before them) and its SAN as written.
    fn record_move(&mut self, san: &str, mv: Move) -> Flow {
        // A move is one token.
        const _: () = assert!(MAX_TOKEN_LEN <= u8::MAX as usize);
        self.add(|r| {
            r.reserve(0, san.len(), 0)?;
            r.text.push_str(san);
            r.events.push(Event::San(mv, san.len() as u8));
            Ok(())
        })
    }
}

impl Visitor for Recorder<'_> {
    type Output = ();

    fn begin_game(&mut self) {
        let _ = self.add(|r| r.push_event(Event::BeginGame));
    }

    fn tag(&mut self, name: &str, value: &str) {
        let _ = self.add(|r| {
            r.reserve(2, name.len() + value.len(), 0)?;
            r.push_text(name);
            r.push_text(value);
            r.events.push(Event::Tag);
            Ok(())
        });
    }

    fn begin_movetext(&mut self, start: &Position) {
        let _ = self.add(|r| {
            r.reserve(0, 0, 1)?;
            r.positions.push(*start);
            r.events.push(Event::BeginMovetext);
            Ok(())
        });
    }

    fn san(&mut self, san: &str, mv: Move, _before: &Position, _after: &Position) -> Flow {
        self.record_move(san, mv)
    }

    fn reads_variant(&mut self, _: Variant) -> bool {
        self.variants
    }

    fn begin_variant_movetext(&mut self, start: &VariantPosition) {
        let _ = self.add(|r| {
            r.reserve(0, 0, 0)?;
            try_room(&mut r.variant_positions, 1)?;
            r.variant_positions.push(*start);
            r.events.push(Event::BeginVariantMovetext);
            Ok(())
        });
    }

    fn variant_san(&mut self, san: &str, mv: Move, _before: &VariantPosition, _after: &VariantPosition) -> Flow {
        self.record_move(san, mv)
    }

    fn nag(&mut self, nag: u8) {
        let _ = self.add(|r| r.push_event(Event::Nag(nag)));
    }

    fn comment(&mut self, text: &str) {
        let _ = self.add(|r| {
            r.reserve(1, text.len(), 0)?;
            r.push_text(text);
            r.events.push(Event::Comment);
            Ok(())
        });
    }

    fn warning(&mut self, warning: PgnWarning) {
        let _ = self.add(|r| {
            r.reserve(0, 0, 0)?;
            try_room(&mut r.warnings, 1)?;
            r.warnings.push(warning);
            r.events.push(Event::Warning);
            Ok(())
        });
    }

    fn begin_variation(&mut self) -> Flow {
        self.add(|r| r.push_event(Event::BeginVariation))
    }

    fn end_variation(&mut self) {
        let _ = self.add(|r| r.push_event(Event::EndVariation));
    }

    fn end_game(&mut self, result: Option<Outcome>) {
        let _ = self.add(|r| r.push_event(Event::EndGame(result)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::builder::RecordBuilder;
    use crate::pgn::{PgnErrorKind, PgnReader};

    /// A game whose recording ran out of memory (whole or broken) is an error of running out of
    /// memory, numbered and placed as one reader places it, without a partial game; the games
    /// around it are whole.
    #[test]
    fn a_game_recorded_without_memory_is_out_of_memory() {
        let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 Ke3 *\n\n1. c4 {c} *\n";
        let mut reader = PgnReader::from_bytes(pgn);
        let mut recording = Recording::default();
        while recording.record_game(&mut reader, false) {}
        assert_eq!(recording.len(), 3);
        let mut serial = PgnReader::from_bytes(pgn);
        let first = serial.next_game().unwrap().unwrap();
        let end = serial.location();
        let broken = serial.next_game().unwrap_err();
        let last = serial.next_game().unwrap().unwrap();
        for ending in &mut recording.games[..2] {
            ending.out_of_memory = true;
        }
        let mut builder = RecordBuilder::default();
        let lost = recording.replay(&mut builder, 10).unwrap().unwrap_err();
        assert_eq!(
            (lost.kind, lost.game, lost.location, lost.partial.is_none()),
            (PgnErrorKind::OutOfMemory, 11, end, true)
        );
        assert_ne!(first.moves().len(), 0);
        let lost = recording.replay(&mut builder, 10).unwrap().unwrap_err();
        assert_eq!((lost.kind, lost.game, lost.location), (PgnErrorKind::OutOfMemory, 12, broken.location));
        assert!(lost.partial.is_none() && broken.partial.is_some());
        let replayed = recording.replay(&mut builder, 10).unwrap().unwrap();
        assert_eq!(format!("{replayed:?}"), format!("{last:?}"));
        assert!(recording.replay(&mut builder, 10).is_none());
        // Emptied, it records anew.
        recording.clear();
        let mut reader = PgnReader::from_bytes(pgn);
        assert!(recording.record_game(&mut reader, false) && recording.len() == 1);
        let again = recording.replay(&mut builder, 0).unwrap().unwrap();
        assert_eq!(format!("{again:?}"), format!("{first:?}"));
    }
}
