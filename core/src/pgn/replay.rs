//! The two consumers of movetext tokens: [`Replay`], which reads them (every move replayed and
//! checked, every event told to a visitor), and [`Skip`], which follows only where the skipped
//! part ends.

use std::ops::ControlFlow;

use crate::board::moves::Move;
use crate::game::Outcome;
use crate::notation::san::{read_san, SanError, SanMode, SanOptions};
use crate::position::Position;
use crate::variant::VariantPosition;

use super::error::{Location, PgnErrorKind, PgnWarning, Rejection, Resync};
use super::tokenizer::{utf8, Consumer, Token, Word};
use super::visitor::{Flow, Visitor};

/// What a line of movetext is replayed on: the chess position, or a variant's. Each is read,
/// played and told to the visitor its own way; the reader around them is the same.
pub(super) trait Board: Copy {
    /// True for the variants' board.
    const IS_VARIANT: bool;
    /// The move `san` names here, as `options` allow.
    fn read_move(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError>;
    /// Plays `mv`, just read here (a null move where the options allowed it).
    fn play_move(&mut self, mv: Move);
    /// Tells `visitor` of the move `san` read as `mv`.
    fn tell<V: Visitor>(visitor: &mut V, san: &str, mv: Move, before: &Self, after: &Self) -> Flow;
    /// The open lines of this kind of board.
    fn lines_of(lines: &mut Lines) -> &mut Vec<Line<Self>>;
}

/// The lines open in the game being read, on the board its rules call for; the vectors are
/// kept between games, so that reading allocates only when a game nests deeper than before.
#[derive(Default)]
pub(super) struct Lines {
    chess: Vec<Line>,
    variant: Vec<Line<VariantPosition>>,
    /// True while a variant game is read.
    in_variant: bool,
}

impl Lines {
    /// Empties the lines of the kind `B` and makes them the ones read.
    pub(super) fn start<B: Board>(&mut self) -> &mut Vec<Line<B>> {
        self.chess.clear();
        self.variant.clear();
        self.in_variant = B::IS_VARIANT;
        B::lines_of(self)
    }

    /// The number of lines open: 1 for the main line, one more per variation.
    pub(super) fn len(&self) -> usize {
        if self.in_variant {
            self.variant.len()
        } else {
            self.chess.len()
        }
    }

    /// The ply and the opening of the innermost line.
    pub(super) fn last(&self) -> Option<(u32, Location)> {
        if self.in_variant {
            self.variant.last().map(|line| (line.ply, line.opened))
        } else {
            self.chess.last().map(|line| (line.ply, line.opened))
        }
    }

    /// Closes the innermost line; returns where it was opened.
    pub(super) fn pop(&mut self) -> Option<Location> {
        if self.in_variant {
            self.variant.pop().map(|line| line.opened)
        } else {
            self.chess.pop().map(|line| line.opened)
        }
    }
}

impl Board for Position {
    const IS_VARIANT: bool = false;

    #[inline(always)]
    fn read_move(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        read_san(self, san, options)
    }

    #[inline(always)]
    fn play_move(&mut self, mv: Move) {
        if mv.is_null() {
            self.play_null();
        } else {
            self.play_unchecked(mv);
        }
    }

    #[inline(always)]
    fn tell<V: Visitor>(visitor: &mut V, san: &str, mv: Move, before: &Self, after: &Self) -> Flow {
        visitor.san(san, mv, before, after)
    }

    fn lines_of(lines: &mut Lines) -> &mut Vec<Line<Self>> {
        &mut lines.chess
    }
}

impl Board for VariantPosition {
    const IS_VARIANT: bool = true;

    /// Null moves are no variant move; strict reading wants the SAN the position writes.
    fn read_move(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        let text = std::str::from_utf8(san).map_err(|_| SanError::Syntax)?;
        let mv = self.parse_san(text)?;
        if options.mode == SanMode::Strict {
            let canonical = self.san(mv).map_err(|_| SanError::Illegal)?;
            if canonical.as_bytes() != san {
                return Err(SanError::NotCanonical { mv, canonical });
            }
        }
        Ok(mv)
    }

    fn play_move(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn tell<V: Visitor>(visitor: &mut V, san: &str, mv: Move, before: &Self, after: &Self) -> Flow {
        visitor.variant_san(san, mv, before, after)
    }

    fn lines_of(lines: &mut Lines) -> &mut Vec<Line<Self>> {
        &mut lines.variant
    }
}

/// One line being read: the main line, or a variation.
#[derive(Clone, Copy)]
pub(super) struct Line<B = Position> {
    /// The positions before and after the line's last move, `positions[current]` being the
    /// latter: a move writes the other slot, so each move copies one position, not two.
    pub(super) positions: [B; 2],
    pub(super) current: usize,
    /// Plies from the game's start to the current position.
    pub(super) ply: u32,
    /// True once the line has a move.
    pub(super) has_move: bool,
    /// Where the `(` of a variation stands.
    pub(super) opened: Location,
}

impl<B: Board> Line<B> {
    pub(super) fn new(start: B, ply: u32, opened: Location) -> Line<B> {
        Line { positions: [start; 2], current: 0, ply, has_move: false, opened }
    }

    /// The position before the last move (a variation starts from here).
    fn before(&self) -> &B {
        &self.positions[self.current ^ 1]
    }

    /// Reads `san` in the current position.
    #[inline(always)]
    fn parse(&self, san: &[u8], options: &SanOptions) -> Result<Move, SanError> {
        self.positions[self.current].read_move(san, options)
    }

    /// Plays `mv`, just read from `san` and legal (or a null move), and tells the visitor.
    #[inline(always)]
    fn play<V: Visitor>(&mut self, visitor: &mut V, san: &str, mv: Move) -> Flow {
        let before = self.current;
        let after = before ^ 1;
        self.positions[after] = self.positions[before];
        self.positions[after].play_move(mv);
        self.current = after;
        self.ply += 1;
        self.has_move = true;
        B::tell(visitor, san, mv, &self.positions[before], &self.positions[after])
    }
}

/// `san` split into the move and the NAG of its `!`/`?` suffix; `None` when the marks are no
/// annotation (`!!!`).
#[inline(always)]
pub(super) fn split_suffix(san: &[u8]) -> Option<(&[u8], Option<u8>)> {
    if !matches!(san, [.., b'!' | b'?']) {
        return Some((san, None));
    }
    let marks = san.iter().rev().take_while(|&&b| b == b'!' || b == b'?').count();
    let (body, marks) = san.split_at(san.len() - marks);
    Some((body, Some(suffix_nag(marks)?)))
}

/// The consumer of movetext tokens that reads them: every move replayed and checked, every
/// event told to the visitor.
pub(super) struct Replay<'a, V, B = Position> {
    pub(super) visitor: &'a mut V,
    /// The line being read last; the main line first.
    pub(super) lines: &'a mut Vec<Line<B>>,
    pub(super) san: SanOptions,
    pub(super) max_depth: usize,
    pub(super) strict: bool,
}

/// Why [`Replay`] stopped the tokens.
pub(super) enum ReplayStop {
    /// A result token (at any depth: the reader checks that no variation is open).
    Result(Outcome),
    /// The visitor asked to skip the rest of the movetext.
    Skip,
    /// The visitor asked to skip the variation opened at this place.
    SkipVariation(Location),
}

impl<V: Visitor, B: Board> Consumer for Replay<'_, V, B> {
    const READS: bool = true;
    type Stop = ReplayStop;

    #[inline(always)]
    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        match token {
            Token::Word(word) => return self.word(word),
            Token::Comment(text) => self.visitor.comment(text),
            Token::Nag(nag) => self.visitor.nag(nag),
            Token::Open(at) => return self.open_variation(at),
            Token::Close => {
                if self.lines.len() == 1 {
                    return Err(Rejection::new(PgnErrorKind::UnmatchedParen, b")", Resync::MOVETEXT));
                }
                self.lines.pop();
                self.visitor.end_variation();
            }
            Token::Result(outcome) => return Ok(ControlFlow::Break(ReplayStop::Result(outcome))),
        }
        Ok(ControlFlow::Continue(()))
    }

    fn depth(&self) -> u32 {
        self.lines.len() as u32 - 1
    }

    fn warning(&mut self, warning: PgnWarning) {
        self.visitor.warning(warning);
    }
}

impl<V: Visitor, B: Board> Replay<'_, V, B> {
    /// A word: a move with its `!`/`?` suffix, a suffix alone, or an evaluation symbol.
    #[inline(always)]
    fn word<'a>(&mut self, word: Word<'a>) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        let depth = self.lines.len() - 1;
        let Some((san, suffix)) = split_suffix(word.bytes()) else {
            return Err(Rejection::new(PgnErrorKind::InvalidNag, word.bytes(), Resync::at_depth(depth)));
        };
        let mut flow = Flow::Continue;
        if !san.is_empty() {
            if self.strict {
                if let Some(what) = non_standard_suffix(san) {
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what }, san, Resync::at_depth(depth)));
                }
            }
            let line = &mut self.lines[depth];
            match line.parse(san, &self.san) {
                Ok(mv) => {
                    // SAN is ASCII: the move was read from the start of an ASCII word.
                    let text = match word {
                        Word::Ascii(text) => text.get(..san.len()),
                        Word::Other(_) => utf8(san),
                    };
                    flow = line.play(self.visitor, text.unwrap_or_default(), mv);
                }
                Err(e) => return self.not_a_move(word, san, suffix, e),
            }
        }
        if let Some(nag) = suffix {
            self.visitor.nag(nag);
        }
        if flow == Flow::Skip {
            return Ok(ControlFlow::Break(ReplayStop::Skip));
        }
        Ok(ControlFlow::Continue(()))
    }

    /// A word whose `san` part is no move (`error`): an evaluation symbol, an en passant mark
    /// standing alone after its move (`exd6 e.p.`), or a move spelled with Unicode dashes or
    /// daggers (`O‑O`, `Nf3†`), read as its ASCII spelling. Rare, so kept off the path of
    /// moves.
    #[cold]
    fn not_a_move<'a>(
        &mut self,
        word: Word<'a>,
        san: &'a [u8],
        suffix: Option<u8>,
        error: SanError,
    ) -> Result<ControlFlow<ReplayStop>, Rejection<'a>> {
        let resync = Resync::at_depth(self.lines.len() - 1);
        if suffix.is_none() {
            if let Some(nag) = symbol_nag(san) {
                self.visitor.nag(nag);
                return Ok(ControlFlow::Continue(()));
            }
            if matches!(san, b"e.p." | b"ep") {
                if self.strict {
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what: EN_PASSANT_MARK }, san, resync));
                }
                return Ok(ControlFlow::Continue(()));
            }
        }
        if let Word::Other(bytes) = word {
            let mut spelled = [0; ASCII_SPELLING_MAX];
            if let Some(ascii) = ascii_spelling(bytes, &mut spelled) {
                if self.strict {
                    let what = "Unicode dash or dagger in a move";
                    return Err(Rejection::new(PgnErrorKind::NonStandard { what }, bytes, resync));
                }
                return self.word(Word::Ascii(ascii)).map_err(|rejection| rejection.about(bytes));
            }
        }
        Err(Rejection::new(PgnErrorKind::Move(error), san, resync))
    }

    /// A `(` at `at`: checks it may open a variation here, then lets the visitor choose.
    fn open_variation(&mut self, at: Location) -> Result<ControlFlow<ReplayStop>, Rejection<'static>> {
        let depth = self.lines.len() - 1;
        let top = &self.lines[depth];
        // The `(` is read: the rest of a broken game is skipped from inside the variation.
        let inside = Resync::at_depth(depth + 1);
        if !top.has_move {
            return Err(Rejection::new(PgnErrorKind::VariationWithoutMove, b"(", inside));
        }
        if depth >= self.max_depth {
            return Err(Rejection::new(PgnErrorKind::TooDeep { limit: self.max_depth }, b"(", inside));
        }
        let (start, ply) = (*top.before(), top.ply - 1);
        // Room first, so that the visitor hears of no variation the reader cannot hold.
        if self.lines.try_reserve(1).is_err() {
            return Err(Rejection::new(PgnErrorKind::OutOfMemory, b"(", inside));
        }
        Ok(match self.visitor.begin_variation() {
            Flow::Continue => {
                self.lines.push(Line::new(start, ply, at));
                ControlFlow::Continue(())
            }
            Flow::Skip => ControlFlow::Break(ReplayStop::SkipVariation(at)),
        })
    }
}

/// The consumer of movetext tokens that skips them, following variations only for where the
/// skipped part ends.
pub(super) struct Skip {
    pub(super) depth: u32,
    /// Stop at the `)` that brings the depth to 0 (a variation skipped whole).
    pub(super) close_at_zero: bool,
}

/// Why [`Skip`] stopped the tokens.
pub(super) enum SkipStop {
    /// A result token (which ends the game at any depth, as in reading).
    Result(Outcome),
    /// The `)` closing a variation skipped whole.
    Closed,
}

impl Consumer for Skip {
    const READS: bool = false;
    type Stop = SkipStop;

    fn token<'a>(&mut self, token: Token<'a>) -> Result<ControlFlow<SkipStop>, Rejection<'a>> {
        Ok(match token {
            Token::Open(_) => {
                self.depth += 1;
                ControlFlow::Continue(())
            }
            Token::Close if self.depth > 0 => {
                self.depth -= 1;
                if self.depth == 0 && self.close_at_zero {
                    ControlFlow::Break(SkipStop::Closed)
                } else {
                    ControlFlow::Continue(())
                }
            }
            // At any depth, as in reading: a result inside a variation ends the game.
            Token::Result(outcome) => ControlFlow::Break(SkipStop::Result(outcome)),
            _ => ControlFlow::Continue(()),
        })
    }

    fn depth(&self) -> u32 {
        self.depth
    }
}

/// What strict reading calls an en passant mark.
pub(super) const EN_PASSANT_MARK: &str = "en passant mark e.p. or ep";

/// What strict reading refuses in the move `san` that lenient SAN reads: an en passant mark
/// (no standard SAN holds a `p`) or a doubled check sign.
pub(super) fn non_standard_suffix(san: &[u8]) -> Option<&'static str> {
    if san.contains(&b'p') {
        Some(EN_PASSANT_MARK)
    } else if san.windows(2).any(|pair| pair == b"++") {
        Some("check sign ++")
    } else {
        None
    }
}

/// Room for a move spelled in ASCII from Unicode: more than any SAN with its suffixes.
pub(super) const ASCII_SPELLING_MAX: usize = 32;

/// `word` with the Unicode dashes word processors put in moves (hyphen, non-breaking hyphen,
/// figure dash, en dash, em dash, minus sign) made `-`, and the dagger `†` and double dagger
/// `‡` some books use for check and mate made `+` and `#`, written into `out`; `None` when
/// something else that is not ASCII remains, or it does not fit.
pub(super) fn ascii_spelling<'a>(word: &[u8], out: &'a mut [u8; ASCII_SPELLING_MAX]) -> Option<&'a str> {
    let mut len = 0;
    for c in std::str::from_utf8(word).ok()?.chars() {
        let ascii = match c {
            '\u{2010}'..='\u{2015}' | '\u{2212}' => b'-',
            '\u{2020}' => b'+',
            '\u{2021}' => b'#',
            c if c.is_ascii() => c as u8,
            _ => return None,
        };
        *out.get_mut(len)? = ascii;
        len += 1;
    }
    std::str::from_utf8(&out[..len]).ok()
}

/// The NAG of a suffix annotation.
pub(super) fn suffix_nag(text: &[u8]) -> Option<u8> {
    match text {
        b"!" => Some(1),
        b"?" => Some(2),
        b"!!" => Some(3),
        b"??" => Some(4),
        b"!?" => Some(5),
        b"?!" => Some(6),
        _ => None,
    }
}

/// The NAG of an evaluation symbol written as a token of its own.
pub(super) fn symbol_nag(text: &[u8]) -> Option<u8> {
    let nag = match text {
        b"=" => 10,
        b"+=" => 14,
        b"=+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" => 18,
        b"-+" => 19,
        b"+/=" => 14,
        b"=/+" => 15,
        _ => match std::str::from_utf8(text).ok()? {
            "∞" => 13,
            "=/∞" => 44,
            "∞/=" => 45,
            "⩲" => 14,
            "⩱" => 15,
            "±" => 16,
            "∓" => 17,
            _ => return None,
        },
    };
    Some(nag)
}
