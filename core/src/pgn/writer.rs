//! PGN export: tags in Seven Tag Roster order, then movetext with numbers, NAGs, comments and
//! variations, wrapped at 80 columns.

use std::borrow::Cow;
use std::fmt;
use std::io;

use crate::board::color::Color;
use crate::game::{roster_default, Game, GameBoard, MoveTree, NodeId, Outcome, Tags, SEVEN_TAG_ROSTER};
use crate::variant::AnyGame;

/// Choices of the PGN writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Movetext lines are wrapped before this many characters (default 80); 0 writes the
    /// movetext on one line. A single comment longer than a line is never broken.
    pub line_width: usize,
    /// Write comments (default true).
    pub comments: bool,
    /// Write NAGs (default true).
    pub nags: bool,
    /// Write variations (default true).
    pub variations: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions { line_width: 80, comments: true, nags: true, variations: true }
    }
}

/// `c`, or a space for a control character (NUL, ESC, a tab, a line end, DEL, C1): the reader
/// refuses some of them and a terminal acts on others, and a written game must read back.
fn printable(c: char) -> char {
    if c.is_control() {
        ' '
    } else {
        c
    }
}

/// Writes `value` as the inside of a PGN string: `\` and `"` escaped, control characters
/// (line ends included) as spaces.
fn write_escaped<W: fmt::Write>(out: &mut W, value: &str) -> fmt::Result {
    for c in value.chars() {
        if c == '\\' || c == '"' {
            out.write_char('\\')?;
        }
        out.write_char(printable(c))?;
    }
    Ok(())
}

fn write_tag<W: fmt::Write>(out: &mut W, name: &str, value: &str) -> fmt::Result {
    write!(out, "[{name} \"")?;
    write_escaped(out, value)?;
    out.write_str("\"]\n")
}

/// Movetext tokens separated by spaces, wrapped at a width.
struct Wrap<'a, W> {
    out: &'a mut W,
    width: usize,
    column: usize,
}

impl<W: fmt::Write> Wrap<'_, W> {
    /// Starts a token of `len` characters: a space or a line break as the width asks.
    fn space_for(&mut self, len: usize) -> fmt::Result {
        if self.column > 0 {
            if self.width > 0 && self.column + 1 + len > self.width {
                self.out.write_char('\n')?;
                self.column = 0;
            } else {
                self.out.write_char(' ')?;
                self.column += 1;
            }
        }
        Ok(())
    }

    fn token(&mut self, text: &str) -> fmt::Result {
        self.space_for(text.len())?;
        self.out.write_str(text)?;
        self.column += text.len();
        Ok(())
    }

    fn move_number(&mut self, number: u32, black: bool) -> fmt::Result {
        let dots = if black { "..." } else { "." };
        let len = number.checked_ilog10().unwrap_or(0) as usize + 1 + dots.len();
        self.space_for(len)?;
        write!(self.out, "{number}{dots}")?;
        self.column += len;
        Ok(())
    }

    fn nag(&mut self, nag: u8) -> fmt::Result {
        let len = nag.checked_ilog10().unwrap_or(0) as usize + 2;
        self.space_for(len)?;
        write!(self.out, "${nag}")?;
        self.column += len;
        Ok(())
    }

    /// `{ text }`; a text holding `}` cannot be braced, so it is written as a `;` comment
    /// when it fits on one line, and loses its `}` otherwise. A line of the text that starts
    /// with `[` gets a space before it, or the reader could take it for the next game's tags.
    /// Control characters other than the line breaks are written as spaces.
    fn comment(&mut self, text: &str) -> fmt::Result {
        // As the reader will see it: control characters as spaces, then no blank at either end
        // (the reader trims them), so that what is written reads back the same.
        let cleaned: Cow<'_, str> = if text.chars().any(|c| c != '\n' && c.is_control()) {
            Cow::Owned(text.chars().map(|c| if c == '\n' { c } else { printable(c) }).collect())
        } else {
            Cow::Borrowed(text)
        };
        let text = cleaned.trim_matches([' ', '\n']);
        if text.contains('}') && !text.contains('\n') {
            self.space_for(2 + text.chars().count())?;
            self.out.write_str("; ")?;
            self.out.write_str(text)?;
            self.out.write_char('\n')?;
            self.column = 0;
            return Ok(());
        }
        if text.is_empty() {
            return self.token("{ }");
        }
        let first_line = text.split('\n').next().unwrap_or_default();
        self.space_for(2 + first_line.chars().count())?;
        self.out.write_str("{ ")?;
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                self.out.write_str(if line.starts_with('[') { "\n " } else { "\n" })?;
            }
            for c in line.chars().filter(|&c| c != '}') {
                self.out.write_char(c)?;
            }
        }
        self.out.write_str(" }")?;
        self.column = match text.rfind('\n') {
            Some(i) => text[i + 1..].chars().count() + 2 + usize::from(text[i + 1..].starts_with('[')),
            None => self.column + text.chars().count() + 4,
        };
        Ok(())
    }
}

/// What is left to write of a node being written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The move itself, with its NAGs and comments.
    Move,
    /// Its variations (the alternatives to it), then its continuation.
    Variations(Option<NodeId>),
}

/// A line being written: its current node and the position before that node's move.
struct Frame<B> {
    node: NodeId,
    before: B,
    step: Step,
    in_variation: bool,
}

/// The stack of lines [`write_movetext`] needs, with room for all of them: allocated before
/// anything is written, so that running out of memory fails the writer before its first byte
/// (the C ABI then leaves the caller's buffer untouched), and never while it writes.
fn frame_stack<B>(tree: &MoveTree, options: &WriteOptions) -> Result<Vec<Frame<B>>, fmt::Error> {
    let frames = if options.variations { frames_needed(tree) } else { 1 };
    let mut stack = Vec::new();
    stack.try_reserve_exact(frames).map_err(|_| fmt::Error)?;
    Ok(stack)
}

/// The most frames [`write_movetext`] has on its stack at once: one for the main line and one
/// more per variation open around a move. Found by a walk of the tree that needs no stack
/// itself (the tree links children to parents and siblings).
fn frames_needed(tree: &MoveTree) -> usize {
    let root = tree.root();
    // The depth of `node`: its children that are variations are one deeper, its main child
    // is as deep.
    let (mut node, mut depth, mut most) = (root, 1, 1);
    loop {
        if let Some(child) = tree.main_child(node) {
            node = child;
            continue;
        }
        // Up to the nearest node with a next sibling: a variation one deeper than the parent.
        loop {
            if node == root {
                return most;
            }
            let variation = usize::from(!tree.is_main_child(node));
            if let Some(sibling) = tree.next_sibling(node) {
                depth = depth - variation + 1;
                most = most.max(depth);
                node = sibling;
                break;
            }
            depth -= variation;
            node = tree.parent(node).unwrap_or(root);
        }
    }
}

/// Writes the movetext of `tree` from `start`, then `result`, with `stack` from
/// [`frame_stack`].
fn write_movetext<W: fmt::Write, B: GameBoard>(
    out: &mut W,
    start: &B,
    tree: &MoveTree,
    result: Outcome,
    options: &WriteOptions,
    mut stack: Vec<Frame<B>>,
) -> fmt::Result {
    let mut w = Wrap { out, width: options.line_width, column: 0 };
    let root = tree.root();
    // A number goes before a white move, and before a black one that starts the game or
    // follows a comment or a variation.
    let mut number = true;
    if options.nags {
        for nag in tree.nags(root) {
            w.nag(nag)?;
        }
    }
    if options.comments {
        for text in tree.comments(root) {
            w.comment(text)?;
        }
    }
    // An explicit stack: variations nest as deep as the input had them.
    if let Some(first) = tree.main_child(root) {
        stack.push(Frame { node: first, before: *start, step: Step::Move, in_variation: false });
    }
    while let Some(top) = stack.last_mut() {
        let node = top.node;
        let mv = tree.mv(node).ok_or(fmt::Error)?;
        match top.step {
            Step::Move => {
                if options.comments {
                    for text in tree.comments_before(node) {
                        w.comment(text)?;
                        number = true;
                    }
                }
                let pos = &top.before;
                let black = pos.turn() == Color::Black;
                if !black || number {
                    w.move_number(pos.fullmove_number(), black)?;
                }
                let san = pos.san(mv).map_err(|_| fmt::Error)?;
                w.token(&san)?;
                number = false;
                if options.nags {
                    for nag in tree.nags(node) {
                        w.nag(nag)?;
                    }
                }
                if options.comments {
                    for text in tree.comments(node) {
                        w.comment(text)?;
                        number = true;
                    }
                }
                // A variation's first move has its alternatives written by the line above.
                let variations = options.variations && tree.is_main_child(node);
                top.step = Step::Variations(if variations { tree.next_sibling(node) } else { None });
            }
            Step::Variations(Some(variation)) => {
                top.step = Step::Variations(tree.next_sibling(variation));
                let before = top.before;
                w.token("(")?;
                number = true;
                debug_assert!(stack.len() < stack.capacity(), "frames_needed counted too few");
                stack.push(Frame { node: variation, before, step: Step::Move, in_variation: true });
            }
            Step::Variations(None) => match tree.main_child(node) {
                Some(next) => {
                    top.before.play_legal(mv);
                    top.node = next;
                    top.step = Step::Move;
                }
                None => {
                    let in_variation = top.in_variation;
                    stack.pop();
                    if in_variation {
                        w.token(")")?;
                        number = true;
                    }
                }
            },
        }
    }
    w.token(result.as_pgn())?;
    w.out.write_char('\n')
}

/// Writes a whole game: tags, a blank line, movetext.
fn write_game<W: fmt::Write, B: GameBoard>(
    out: &mut W,
    tags: &Tags,
    start: &B,
    tree: &MoveTree,
    result: Outcome,
    options: &WriteOptions,
) -> fmt::Result {
    let stack = frame_stack(tree, options)?;
    for name in SEVEN_TAG_ROSTER {
        let value = match tags.get(name) {
            Some(value) => value,
            None if name == "Result" => result.as_pgn(),
            None => roster_default(name).unwrap_or("?"),
        };
        write_tag(out, name, value)?;
    }
    // `SetUp` and `FEN` are written from the start position, which the movetext is played
    // from, whatever the tags say (they may lack one of the pair or disagree with it).
    let derived = |name: &str| SEVEN_TAG_ROSTER.contains(&name) || name == "SetUp" || name == "FEN";
    for (name, value) in tags.iter().filter(|(name, _)| !derived(name)) {
        write_tag(out, name, value)?;
    }
    if let Some(variant) = start.variant_tag().filter(|_| tags.get("Variant").is_none()) {
        write_tag(out, "Variant", variant)?;
    }
    if !start.is_standard_start() {
        write_tag(out, "SetUp", "1")?;
        // Written in place, not built as a String first: a FEN holds nothing to escape.
        out.write_str("[FEN \"")?;
        start.write_fen(out)?;
        out.write_str("\"]\n")?;
    }
    out.write_char('\n')?;
    write_movetext(out, start, tree, result, options, stack)
}

/// `fmt::Write` over an `io::Write`, keeping the I/O error.
struct IoAdapter<'a, W> {
    inner: &'a mut W,
    error: Option<io::Error>,
}

impl<W: io::Write> fmt::Write for IoAdapter<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

fn to_io<W: io::Write>(out: &mut W, write: impl FnOnce(&mut IoAdapter<'_, W>) -> fmt::Result) -> io::Result<()> {
    let mut adapter = IoAdapter { inner: out, error: None };
    write(&mut adapter).map_err(|_| adapter.error.unwrap_or_else(|| io::Error::other("PGN formatting failed")))
}

impl<B: GameBoard> Game<B> {
    /// Writes the game as PGN: the Seven Tag Roster (defaults for missing tags), the other
    /// tags in order, `SetUp`/`FEN` and `Variant` when the start position needs them, a blank
    /// line, the movetext and its result ([`Game::effective_result`]), then a line end. Fails
    /// when `out` fails, or when memory for the stack of open variations runs out: then before
    /// anything is written (the one allocation, sized for the deepest nesting first).
    pub fn write_pgn<W: fmt::Write>(&self, out: &mut W, options: &WriteOptions) -> fmt::Result {
        write_game(out, self.tags(), self.start(), self.tree(), self.effective_result(), options)
    }

    /// [`Game::write_pgn`] to an `io::Write`.
    pub fn write_pgn_io<W: io::Write>(&self, out: &mut W, options: &WriteOptions) -> io::Result<()> {
        to_io(out, |adapter| self.write_pgn(adapter, options))
    }

    /// The game as PGN, with the default options.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        // Writing to a String fails only on a move that is not legal, which a game never holds.
        let _ = self.write_pgn(&mut out, &WriteOptions::default());
        out
    }
}

/// The writing of either kind of game.
impl AnyGame {
    /// [`Game::write_pgn`].
    pub fn write_pgn<W: fmt::Write>(&self, out: &mut W, options: &WriteOptions) -> fmt::Result {
        match self {
            AnyGame::Chess(game) => game.write_pgn(out, options),
            AnyGame::Variant(game) => game.write_pgn(out, options),
        }
    }

    /// [`Game::write_pgn_io`].
    pub fn write_pgn_io<W: io::Write>(&self, out: &mut W, options: &WriteOptions) -> io::Result<()> {
        match self {
            AnyGame::Chess(game) => game.write_pgn_io(out, options),
            AnyGame::Variant(game) => game.write_pgn_io(out, options),
        }
    }
}
