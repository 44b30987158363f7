//! The move tree of a PGN game: every move of the main line and of the variations, with the
//! comments and NAGs attached to them.
//!
//! Nodes live in one vector and point at each other by index, so a tree of any depth is built,
//! walked, cloned and dropped without recursion.

use std::collections::TryReserveError;
use std::fmt;

use crate::fallible::{try_room, try_room_str, try_string, try_to_vec};

use crate::board::moves::Move;

use super::annotation::{strip_commands, Annotations};

const NONE: u32 = u32::MAX;

/// A node of a [`MoveTree`]: the root (the start position) or a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The root of every tree.
    pub const ROOT: NodeId = NodeId(0);

    /// The index of the node in its tree (the root is 0; other nodes in creation order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    mv: Move,
    /// The move's text as read from PGN, `sans[written_start..][..written_len]`; empty for
    /// moves added otherwise.
    written_len: u8,
    written_start: u32,
    parent: u32,
    first_child: u32,
    /// The last child, so that appending one is O(1) however many variations there are.
    last_child: u32,
    next_sibling: u32,
    first_note: u32,
    last_note: u32,
    ply: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NoteKind {
    /// A comment after the move (for the root: before the first move).
    After,
    /// A comment before the move (written after a variation's `(`).
    Before,
    /// A NAG; `start` holds its value.
    Nag,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Note {
    next: u32,
    kind: NoteKind,
    start: usize,
    len: usize,
}

/// Moves as a tree: the children of a node are the moves played from the position it
/// reaches, the first child continuing its line and the others being variations (alternatives
/// to that first child). The main line is the chain of first children from the root.
///
/// Each node may carry comments after its move, comments before its move (PGN puts them
/// right after a variation's `(`), and NAGs. Comments and NAGs of the root are the ones
/// written before the first move.
#[derive(Clone, PartialEq, Eq)]
pub struct MoveTree {
    nodes: Vec<Node>,
    notes: Vec<Note>,
    text: String,
    /// The moves' text as read from PGN, one after the other.
    written: String,
}

impl Default for MoveTree {
    fn default() -> Self {
        MoveTree::new()
    }
}

impl MoveTree {
    /// A tree with the root only.
    pub fn new() -> MoveTree {
        MoveTree { nodes: vec![Self::root_node()], notes: Vec::new(), text: String::new(), written: String::new() }
    }

    /// [`MoveTree::new`], reporting a failed allocation instead of aborting.
    pub fn try_new() -> Result<MoveTree, TryReserveError> {
        MoveTree::try_with_capacity(1, 0, 0, 0)
    }

    /// A tree with the root only and room for `nodes` nodes (the root included), `notes`
    /// comments and NAGs, `text` bytes of comments and `written` bytes of moves as written.
    fn with_capacity(nodes: usize, notes: usize, text: usize, written: usize) -> MoveTree {
        let mut tree = MoveTree {
            nodes: Vec::with_capacity(nodes),
            notes: Vec::with_capacity(notes),
            text: String::with_capacity(text),
            written: String::with_capacity(written),
        };
        tree.nodes.push(Self::root_node());
        tree
    }

    /// [`MoveTree::with_capacity`], or an error when memory runs out.
    pub(crate) fn try_with_capacity(
        nodes: usize,
        notes: usize,
        text: usize,
        written: usize,
    ) -> Result<MoveTree, TryReserveError> {
        let mut tree = MoveTree { nodes: Vec::new(), notes: Vec::new(), text: String::new(), written: String::new() };
        tree.nodes.try_reserve_exact(nodes.max(1))?;
        tree.notes.try_reserve_exact(notes)?;
        tree.text.try_reserve_exact(text)?;
        tree.written.try_reserve_exact(written)?;
        tree.nodes.push(Self::root_node());
        Ok(tree)
    }

    /// Reserves room for at least `moves` more moves, so that adding them does not allocate,
    /// or fails (changing nothing) when memory runs out.
    #[inline]
    pub fn try_reserve(&mut self, moves: usize) -> Result<(), TryReserveError> {
        try_room(&mut self.nodes, moves)
    }

    /// How many comments and NAGs, bytes of comments and bytes of moves as written the tree
    /// holds.
    pub(crate) fn note_sizes(&self) -> (usize, usize, usize) {
        (self.notes.len(), self.text.len(), self.written.len())
    }

    /// Reserves room for `bytes` more bytes of moves as written.
    #[inline]
    pub(crate) fn try_reserve_written(&mut self, bytes: usize) -> Result<(), TryReserveError> {
        try_room_str(&mut self.written, bytes)
    }

    /// Reserves room for at least `notes` more comments and NAGs holding `text` more bytes of
    /// comments, so that adding them does not allocate, or fails (changing nothing) when
    /// memory runs out.
    #[inline]
    pub fn try_reserve_notes(&mut self, notes: usize, text: usize) -> Result<(), TryReserveError> {
        self.notes.try_reserve(notes)?;
        self.text.try_reserve(text)
    }

    /// A copy of the tree, or an error when memory runs out (`clone` aborts then).
    pub fn try_clone(&self) -> Result<MoveTree, TryReserveError> {
        Ok(MoveTree {
            nodes: try_to_vec(&self.nodes)?,
            notes: try_to_vec(&self.notes)?,
            text: try_string(&self.text)?,
            written: try_string(&self.written)?,
        })
    }

    fn root_node() -> Node {
        Node {
            mv: Move::NULL,
            written_len: 0,
            written_start: 0,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            first_note: NONE,
            last_note: NONE,
            ply: 0,
        }
    }

    /// A tree holding `moves` as its main line.
    pub fn from_moves(moves: &[Move]) -> MoveTree {
        let mut tree = MoveTree::new();
        tree.nodes.reserve(moves.len());
        let mut node = tree.root();
        for &mv in moves {
            node = tree.add_child(node, mv);
        }
        tree
    }

    /// The root: the start position, before any move.
    pub fn root(&self) -> NodeId {
        NodeId::ROOT
    }

    /// The node numbered `index` ([`NodeId::index`]), if the tree has one.
    pub fn node_id(&self, index: usize) -> Option<NodeId> {
        (index < self.nodes.len()).then_some(NodeId(index as u32))
    }

    /// How many moves the tree holds, main line and variations together.
    pub fn move_count(&self) -> usize {
        self.nodes.len() - 1
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    fn link(raw: u32) -> Option<NodeId> {
        (raw != NONE).then_some(NodeId(raw))
    }

    /// The move that leads to `node`; `None` for the root.
    pub fn mv(&self, node: NodeId) -> Option<Move> {
        (node.0 != 0).then(|| self.node(node).mv)
    }

    /// The move of `node` as the PGN it was read from wrote it (`Nf3`, `Ng1f3`, `e2-e4`,
    /// `Nf3+`), without move number and `!`/`?` suffix; `None` for the root and for moves
    /// added otherwise.
    pub fn written_san(&self, node: NodeId) -> Option<&str> {
        let n = self.node(node);
        let start = n.written_start as usize;
        (n.written_len > 0).then(|| &self.written[start..start + usize::from(n.written_len)])
    }

    /// How many moves lead from the root to `node` (0 for the root).
    pub fn ply(&self, node: NodeId) -> u32 {
        self.node(node).ply
    }

    /// The node before `node`; `None` for the root.
    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        Self::link(self.node(node).parent)
    }

    /// The first child of `node`: the move that continues its line.
    pub fn main_child(&self, node: NodeId) -> Option<NodeId> {
        Self::link(self.node(node).first_child)
    }

    /// The next child of `node`'s parent: the next alternative to `node`'s move.
    pub fn next_sibling(&self, node: NodeId) -> Option<NodeId> {
        Self::link(self.node(node).next_sibling)
    }

    /// The children of `node`: its main continuation first, then the variations.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.main_child(node), move |&n| self.next_sibling(n))
    }

    /// True when `node` is the first child of its parent (or the root).
    pub fn is_main_child(&self, node: NodeId) -> bool {
        self.parent(node).is_none_or(|p| self.main_child(p) == Some(node))
    }

    /// The nodes of the main line, first move first (the root excluded).
    pub fn mainline(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.line(self.root())
    }

    /// The nodes that follow `node` along first children (`node` excluded).
    pub fn line(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.main_child(node), move |&n| self.main_child(n))
    }

    fn notes(&self, node: NodeId, kind: NoteKind) -> impl Iterator<Item = &Note> + '_ {
        let first = self.node(node).first_note;
        std::iter::successors((first != NONE).then(|| &self.notes[first as usize]), move |note| {
            (note.next != NONE).then(|| &self.notes[note.next as usize])
        })
        .filter(move |note| note.kind == kind)
    }

    /// The comments after `node`'s move (for the root: before the first move), in order.
    pub fn comments(&self, node: NodeId) -> impl Iterator<Item = &str> + '_ {
        self.notes(node, NoteKind::After).map(|n| &self.text[n.start..n.start + n.len])
    }

    /// The comments before `node`'s move (written after a variation's `(`), in order.
    pub fn comments_before(&self, node: NodeId) -> impl Iterator<Item = &str> + '_ {
        self.notes(node, NoteKind::Before).map(|n| &self.text[n.start..n.start + n.len])
    }

    /// The NAGs of `node`, in order (`!` is 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
    pub fn nags(&self, node: NodeId) -> impl Iterator<Item = u8> + '_ {
        self.notes(node, NoteKind::Nag).map(|n| n.start as u8)
    }

    /// What the commands in the comments after `node`'s move say (`[%clk ...]`, `[%eval ...]`,
    /// ...: see [`Annotations`]).
    pub fn annotations(&self, node: NodeId) -> Annotations {
        let mut annotations = Annotations::default();
        for comment in self.comments(node) {
            annotations.add_from(comment);
        }
        annotations
    }

    /// The text of the comments after `node`'s move without the commands
    /// [`MoveTree::annotations`] reads (see [`strip_commands`]), the comments joined by a space;
    /// empty when they hold commands only.
    pub fn comment_text(&self, node: NodeId) -> String {
        let texts: Vec<String> = self.comments(node).map(strip_commands).filter(|text| !text.is_empty()).collect();
        texts.join(" ")
    }

    /// Makes `annotations` the commands of `node`'s move: its comments after the move become
    /// one, their text without the commands they held followed by these commands (see
    /// [`Annotations::to_comment`]); none when that is empty. NAGs and comments before the
    /// move stay. (The text replaced stays in the tree's memory until the tree is rebuilt.)
    pub fn set_annotations(&mut self, node: NodeId, annotations: &Annotations) {
        let comment = annotations.to_comment(&self.comment_text(node));
        self.retain_notes(node, |note| note.kind != NoteKind::After);
        if !comment.is_empty() {
            self.add_comment(node, &comment);
        }
    }

    /// Unlinks the notes of `node` that `keep` refuses.
    fn retain_notes(&mut self, node: NodeId, keep: impl Fn(&Note) -> bool) {
        let mut next = self.node(node).first_note;
        let (mut first, mut last) = (NONE, NONE);
        while next != NONE {
            let id = next;
            next = self.notes[id as usize].next;
            if !keep(&self.notes[id as usize]) {
                continue;
            }
            self.notes[id as usize].next = NONE;
            if last == NONE {
                first = id;
            } else {
                self.notes[last as usize].next = id;
            }
            last = id;
        }
        let n = &mut self.nodes[node.index()];
        (n.first_note, n.last_note) = (first, last);
    }

    /// Adds `mv` as the last child of `parent` (the main continuation if it is the first) and
    /// returns the new node. The move is not checked here.
    pub(crate) fn add_child(&mut self, parent: NodeId, mv: Move) -> NodeId {
        self.add_written_child(parent, mv, "")
    }

    /// [`MoveTree::add_child`] for a move read from PGN as `written`. Text longer than a
    /// movetext token, or past 4 GiB of it in one tree, is not kept.
    pub(crate) fn add_written_child(&mut self, parent: NodeId, mv: Move, written: &str) -> NodeId {
        let id = self.nodes.len() as u32;
        let ply = self.node(parent).ply + 1;
        let (written_start, written_len) = match (u32::try_from(self.written.len()), u8::try_from(written.len())) {
            (Ok(start), Ok(len)) if start.checked_add(u32::from(len)).is_some() => {
                self.written.push_str(written);
                (start, len)
            }
            _ => (0, 0),
        };
        self.nodes.push(Node {
            mv,
            written_len,
            written_start,
            parent: parent.0,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            first_note: NONE,
            last_note: NONE,
            ply,
        });
        let p = &mut self.nodes[parent.index()];
        let last = std::mem::replace(&mut p.last_child, id);
        if last == NONE {
            p.first_child = id;
        } else {
            self.nodes[last as usize].next_sibling = id;
        }
        NodeId(id)
    }

    fn push_note(&mut self, node: NodeId, kind: NoteKind, start: usize, len: usize) {
        let id = self.notes.len() as u32;
        self.notes.push(Note { next: NONE, kind, start, len });
        let n = &mut self.nodes[node.index()];
        if n.last_note == NONE {
            n.first_note = id;
        } else {
            self.notes[n.last_note as usize].next = id;
        }
        n.last_note = id;
    }

    /// Appends a comment after `node`'s move.
    #[inline]
    pub fn add_comment(&mut self, node: NodeId, text: &str) {
        let start = self.text.len();
        self.text.push_str(text);
        self.push_note(node, NoteKind::After, start, text.len());
    }

    /// Appends a comment before `node`'s move.
    pub fn add_comment_before(&mut self, node: NodeId, text: &str) {
        let start = self.text.len();
        self.text.push_str(text);
        self.push_note(node, NoteKind::Before, start, text.len());
    }

    /// Appends a NAG to `node`.
    pub fn add_nag(&mut self, node: NodeId, nag: u8) {
        self.push_note(node, NoteKind::Nag, usize::from(nag), 0);
    }

    /// Removes the children of `node` (its continuation and the variations) and everything
    /// below them, moves, comments and NAGs alike, and returns `node`'s id afterwards: the ids
    /// of other nodes may change.
    pub(crate) fn remove_children(&mut self, node: NodeId) -> NodeId {
        if let Some(node) = self.remove_newest_child(node) {
            return node;
        }
        let (nodes, notes, text, written) = (self.nodes.len(), self.notes.len(), self.text.len(), self.written.len());
        self.rebuild_without_children(node, MoveTree::with_capacity(nodes, notes, text, written), vec![NONE; nodes])
    }

    /// [`MoveTree::remove_children`], or an error (and the tree unchanged) when memory for the
    /// rebuilt tree runs out.
    pub(crate) fn try_remove_children(&mut self, node: NodeId) -> Result<NodeId, TryReserveError> {
        if let Some(node) = self.remove_newest_child(node) {
            return Ok(node);
        }
        let tree =
            MoveTree::try_with_capacity(self.nodes.len(), self.notes.len(), self.text.len(), self.written.len())?;
        let mut map = Vec::new();
        map.try_reserve_exact(self.nodes.len())?;
        map.resize(self.nodes.len(), NONE);
        Ok(self.rebuild_without_children(node, tree, map))
    }

    /// Removes the children of `node` when there is none, or only the newest node, without
    /// notes: a move pushed and taken back needs no rebuild. `None` when a rebuild is needed.
    fn remove_newest_child(&mut self, node: NodeId) -> Option<NodeId> {
        let n = *self.node(node);
        if n.first_child == NONE {
            return Some(node);
        }
        let newest = self.nodes.len() as u32 - 1;
        if n.first_child == newest && n.last_child == newest && self.nodes[newest as usize].first_note == NONE {
            // The newest node's text, if any, is the last written.
            if let Some(removed) = self.nodes.pop().filter(|n| n.written_len > 0) {
                self.written.truncate(removed.written_start as usize);
            }
            let n = &mut self.nodes[node.index()];
            n.first_child = NONE;
            n.last_child = NONE;
            return Some(node);
        }
        None
    }

    /// Rebuilds the tree without the children of `node` into `tree` (the root only, with room
    /// for this tree's nodes, notes and text, so that nothing allocates), using `map` (one
    /// `NONE` per node) for the new ids.
    fn rebuild_without_children(&mut self, node: NodeId, mut tree: MoveTree, mut map: Vec<u32>) -> NodeId {
        // A parent comes before its children in `nodes`, and siblings in their order, so one
        // pass in that order keeps every kept node's place among its siblings.
        map[0] = 0;
        self.copy_notes(NodeId::ROOT, &mut tree, NodeId::ROOT);
        for (i, old) in self.nodes.iter().enumerate().skip(1) {
            let parent = map[old.parent as usize];
            if old.parent == node.0 || parent == NONE {
                continue;
            }
            let id =
                tree.add_written_child(NodeId(parent), old.mv, self.written_san(NodeId(i as u32)).unwrap_or_default());
            map[i] = id.0;
            self.copy_notes(NodeId(i as u32), &mut tree, id);
        }
        *self = tree;
        NodeId(map[node.index()])
    }

    /// Appends the comments and NAGs of `from` to `to`'s node `id`, in their order.
    fn copy_notes(&self, from: NodeId, to: &mut MoveTree, id: NodeId) {
        let mut next = self.node(from).first_note;
        while next != NONE {
            let note = self.notes[next as usize];
            let text = &self.text[note.start..note.start + note.len];
            match note.kind {
                NoteKind::After => to.add_comment(id, text),
                NoteKind::Before => to.add_comment_before(id, text),
                NoteKind::Nag => to.add_nag(id, note.start as u8),
            }
            next = note.next;
        }
    }
}

impl fmt::Debug for MoveTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MoveTree")
            .field("moves", &self.move_count())
            .field("mainline", &self.mainline().count())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position, San};

    #[test]
    fn children_and_notes() {
        let p = Position::startpos();
        let mv = |san: &str| san.parse::<San>().unwrap().to_move(&p).unwrap();
        let (e4, d4) = (mv("e4"), mv("d4"));
        let mut tree = MoveTree::new();
        let root = tree.root();
        let a = tree.add_child(root, e4);
        let b = tree.add_child(root, d4);
        tree.add_comment(root, "start");
        tree.add_nag(a, 1);
        tree.add_comment(a, "x");
        tree.add_nag(a, 5);
        tree.add_comment_before(b, "instead");
        assert_eq!(tree.children(root).collect::<Vec<_>>(), [a, b]);
        assert_eq!(tree.mainline().collect::<Vec<_>>(), [a]);
        assert!(tree.is_main_child(a) && !tree.is_main_child(b));
        assert_eq!(tree.mv(root), None);
        assert_eq!(tree.mv(b), Some(d4));
        assert_eq!(tree.ply(b), 1);
        assert_eq!(tree.nags(a).collect::<Vec<_>>(), [1, 5]);
        assert_eq!(tree.comments(a).collect::<Vec<_>>(), ["x"]);
        assert_eq!(tree.comments(root).collect::<Vec<_>>(), ["start"]);
        assert_eq!(tree.comments_before(b).collect::<Vec<_>>(), ["instead"]);
        assert_eq!(tree.comments(b).count(), 0);
        assert_eq!(tree.move_count(), 2);
    }

    #[test]
    fn removing_children_keeps_the_rest() {
        let p = Position::startpos();
        let mv = |san: &str, pos: &Position| san.parse::<San>().unwrap().to_move(pos).unwrap();
        let (e4, d4, c4) = (mv("e4", &p), mv("d4", &p), mv("c4", &p));
        let after_e4 = p.make_move(e4);
        let (e5, c5) = (mv("e5", &after_e4), mv("c5", &after_e4));
        let mut tree = MoveTree::new();
        let root = tree.root();
        tree.add_comment(root, "start");
        let a = tree.add_child(root, e4);
        let b = tree.add_child(a, e5);
        let v = tree.add_child(root, d4);
        tree.add_comment_before(v, "instead");
        tree.add_nag(v, 2);
        tree.add_child(a, c5);
        tree.add_comment(b, "gone");
        tree.add_child(root, c4);
        let a = tree.remove_children(a);
        assert_eq!(tree.move_count(), 3);
        assert_eq!(tree.mainline().map(|n| tree.mv(n).unwrap()).collect::<Vec<_>>(), [e4]);
        assert_eq!(tree.children(root).map(|n| tree.mv(n).unwrap()).collect::<Vec<_>>(), [e4, d4, c4]);
        let v = tree.next_sibling(a).unwrap();
        assert_eq!(tree.comments_before(v).collect::<Vec<_>>(), ["instead"]);
        assert_eq!(tree.nags(v).collect::<Vec<_>>(), [2]);
        assert_eq!(tree.comments(root).collect::<Vec<_>>(), ["start"]);
        assert_eq!(tree.main_child(a), None);

        // A move added and removed again leaves the tree as it was.
        let before = tree.clone();
        tree.add_child(a, e5);
        assert_eq!(tree.remove_children(a), a);
        assert_eq!(tree, before);
        assert_eq!(tree.remove_children(a), a);
        assert_eq!(tree.ply(a), 1);
        assert_eq!(tree.remove_children(root), root);
        assert_eq!(tree.move_count(), 0);
        assert_eq!(tree.comments(root).collect::<Vec<_>>(), ["start"]);
    }
}
