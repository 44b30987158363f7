"""``read_game``: a game's lines are taken from the handle as python-chess takes them (so the
handle is left just after the game), its tags read here, and its movetext parsed and replayed
by the library; the visitor then gets python-chess's calls, in its order, from the library's
tree."""

from __future__ import annotations

import ctypes
import re
from typing import Any, Callable, Dict, List, Optional, TextIO, Tuple

from ... import _native
from ..._native import lib
from ...errors import ErrorCode
from ...pgn import read_pgn
from .._board import Board
from .._moves import Move, move_of
from .._squares import STARTING_FEN
from ._tree import SKIP, GameNode, Headers, start_board
from ._visitors import BaseVisitor, GameBuilder, HeadersBuilder, SkipVisitor

_AFTER, _BEFORE = 0, 1
_NODE_NONE = 0xFFFF_FFFF
# Errors of a move the library could not read: python-chess's parse_san tells them apart.
_MOVE_CODES = frozenset([ErrorCode.ILLEGAL_MOVE, ErrorCode.SAN_SYNTAX, ErrorCode.SAN_AMBIGUOUS])
_TAG_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+#=:-")
_TOKEN_ENDS = " \t\r\n{}()$;!?+#"
_COMMENT = re.compile(r"\{[^}]*\}?")
_END = 1 << 62  # a place after every other


def _tag(line: str) -> Optional[Tuple[str, str]]:
    """The (name, value) of a tag line ``[Name "value"]`` (the value kept as written, up to its
    last ``"]``), else None."""
    text = line.rstrip()
    end = 1
    while end < len(text) and text[end] in _TAG_NAME_CHARS:
        end += 1
    if end == 1 or text[1] in "_+#=:-" or not text.endswith('"]'):
        return None
    quote = end
    while quote < len(text) and text[quote].isspace():
        quote += 1
    if quote == end or quote > len(text) - 3 or text[quote] != '"':
        return None
    value = text[quote + 1 : -2]
    return None if "\r" in value else (text[1:end], value)


# The evaluation symbols the library reads as NAGs when they stand alone (``+-``, ``±``, ...),
# which python-chess passes over: left out of the text the library gets.
_SYMBOLS = re.compile(r"(?<!\S)(?:=|\+=|=\+|\+/-|-/\+|\+-|-\+|\+/=|=/\+|∞|=/∞|∞/=|⩲|⩱|±|∓)(?!\S)")
# Results and parentheses: python-chess takes a result anywhere in the main line and reads on,
# where the library would end the game.
_RESULT_OR_PAREN = re.compile(r"[()*]|(?<![0-9/-])(?:1-0|0-1|1/2-1/2)(?![0-9/-])")


class _Movetext:
    """The movetext of a game as the library is to read it: without escape lines, ``;``
    comments, evaluation symbols and results (kept in ``results`` when in the main line); and
    its comments as python-chess keeps them (``comments``: by their text trimmed, as the library
    gives them)."""

    __slots__ = ("parts", "length", "in_comment", "depth", "results", "comment", "comment_at", "comments", "branches", "annotated")

    def __init__(self) -> None:
        self.parts: List[str] = []
        self.length = 0  # of the parts
        self.in_comment = False
        self.depth = 0
        self.results: List[Tuple[int, str]] = []  # with where they were in the text
        self.comment: List[str] = []  # the pieces of the comment open
        self.comment_at = 0  # where it opened
        self.comments: Dict[str, List[Tuple[str, int]]] = {}  # with where they were
        self.branches = False  # whether a variation opens
        self.annotated = False  # whether a NAG may stand

    def end_comment(self) -> None:
        """Keeps the comment just read as python-chess does: less one space after its ``{``
        and one before its ``}``."""
        text = "".join(self.comment)
        if text[:1] == " ":
            text = text[1:]
        if self.in_comment is False and text[-1:] == " ":
            text = text[:-1]
        self.comments.setdefault(text.strip(), []).append((text, self.comment_at))

    def _append(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def _plain(self, text: str) -> None:
        if not self.branches and "(" in text:
            self.branches = True
        if not self.annotated and ("$" in text or "!" in text or "?" in text):
            self.annotated = True
        if "+" in text or "=" in text or not text.isascii():
            text = _SYMBOLS.sub("", text)
        if "(" in text or ")" in text or "*" in text or "-" in text:
            text = _RESULT_OR_PAREN.sub(self._result_or_paren, text)
        self._append(text)

    def _result_or_paren(self, match: "re.Match[str]") -> str:
        token = match.group()
        if token == "(":
            self.depth += 1
        elif token == ")":
            self.depth = max(self.depth - 1, 0)
        else:
            if not self.depth:
                self.results.append((self.length + match.start(), token))
            return " " * len(token)  # the places after it stay where they were
        return token

    def add(self, line: str) -> None:
        """Adds a line: up to a ``;`` outside comments (the rest is a comment python-chess
        drops)."""
        at = 0
        while True:
            if self.in_comment:
                close = line.find("}", at)
                if close < 0:
                    self._append(line[at:] if at else line)
                    self.comment.append(line[at:] if at else line)
                    return
                self._append(line[at : close + 1])
                self.comment.append(line[at:close])
                self.in_comment = False
                self.end_comment()
                at = close + 1
            else:
                brace, semicolon = line.find("{", at), line.find(";", at)
                if semicolon >= 0 and (brace < 0 or semicolon < brace):
                    self._plain(line[at:semicolon])
                    self._append("\n")
                    return
                if brace < 0:
                    self._plain(line[at:] if at else line)
                    return
                self._plain(line[at:brace])
                self.comment_at = self.length
                self._append("{")
                at, self.in_comment, self.comment = brace + 1, True, []


def _read_lines(handle: TextIO) -> Optional[Tuple[List[Tuple[str, str]], _Movetext]]:
    """The tags and the movetext of the next game of ``handle`` (read up to the blank line that
    ends it, or the end), else None; escape lines (``%``) and ``;`` comments left out."""
    readline = handle.readline
    line = readline().lstrip("\ufeff")
    while line.isspace() or line[:1] in ("%", ";"):
        line = readline()
    tags: List[Tuple[str, str]] = []
    found = blank = False
    while line:
        first = line[0]
        if first in "%;":
            line = readline()
            continue
        if not blank and line.isspace():  # one blank line may stand between tags
            blank = True
            line = readline()
            continue
        found = True
        if first != "[":
            break
        blank = False
        tag = _tag(line)
        if tag is not None:
            tags.append(tag)
        line = readline()
    if not found:
        return None
    movetext = _Movetext()
    while line:
        if not movetext.in_comment:
            if line[0] in "%;":
                line = readline()
                continue
            if line.isspace():
                break
            if line[0] == "[":
                # A tag line inside movetext, which python-chess passes over (the library
                # would start a new game there).
                line = readline()
                continue
        movetext.add(line)
        line = readline()
    return tags, movetext


class _Node:
    """A node of the library's tree, as read: its parent's number, move (the root's: a null
    move, never used), NAGs in input order, and the comments before (opening a variation) and
    after its move."""

    __slots__ = ("number", "parent", "move", "nags", "before", "after", "after_at", "children")

    def __init__(self, number: int, parent: int, move: Move, nags: List[int], before: List[str], after: List[Tuple[str, int]]):
        self.number = number
        self.parent = parent
        self.move = move
        self.nags = nags
        self.before = before
        self.after = [text for text, _ in after]
        self.after_at = [at for _, at in after]  # where each was in the text (-1: not known)
        self.children: List[_Node] = []


class _Texts:
    """Reads comments into one buffer, grown as needed, for the nodes of one game; each as
    python-chess keeps it (``exact``: by the library's text, in order), which the library
    gives trimmed."""

    __slots__ = ("buffer", "length", "exact")

    def __init__(self, exact: Dict[str, List[Tuple[str, int]]]) -> None:
        self.buffer = ctypes.create_string_buffer(256)
        self.length = ctypes.c_size_t()
        self.exact = exact

    def comments(self, ptr: Any, number: int, place: int, count: int) -> List[Tuple[str, int]]:
        """The comments of a node at a place, each with where it was in the text."""
        out = []
        for i in range(count):
            code = lib.chess_node_comment(ptr, number, place, i, self.buffer, len(self.buffer), ctypes.byref(self.length))
            if code == ErrorCode.BUFFER_TOO_SMALL:
                self.buffer = ctypes.create_string_buffer(self.length.value + 1)
                code = lib.chess_node_comment(ptr, number, place, i, self.buffer, len(self.buffer), ctypes.byref(self.length))
            _native.check(code)
            text = self.buffer.raw[: self.length.value].decode("utf-8")
            same = self.exact.get(text)
            out.append(same.pop(0) if same else (text, -1))
        return out


def _library_tree(ptr: Any, chess960: bool, movetext: _Movetext) -> List[_Node]:
    """The nodes of a game handle, the root first; children in their order; the comments as
    python-chess keeps them. Asks the library only for what the text may hold: a text without
    parentheses is one line (whose moves come in one call), one without comments or NAGs has
    none."""
    nag_buffer = ctypes.create_string_buffer(64)
    comments = _Texts(movetext.comments).comments if movetext.comments else None
    count = lib.chess_node_count(ptr)
    if movetext.branches:
        parent_of, move_raw = lib.chess_node_parent, lib.chess_node_move
        lines = [(parent_of(ptr, number), move_raw(ptr, number)) for number in range(1, count)]
    else:
        raws = (ctypes.c_uint16 * count)()
        lines = list(enumerate(raws[: lib.chess_game_moves(ptr, raws, count)]))
    comment_count, nags_of = lib.chess_node_comment_count, lib.chess_node_nags
    root_comments = comments(ptr, 0, _AFTER, comment_count(ptr, 0, _AFTER)) if comments else []
    nodes = [_Node(0, -1, Move.null(), [], [], root_comments)]
    number = 0
    for parent, raw in lines:
        number += 1
        nags: List[int] = []
        if movetext.annotated:
            nag_count = nags_of(ptr, number, nag_buffer, 64)
            nags = list(nag_buffer.raw[:nag_count]) if nag_count else []
        before = after = 0
        if comments is not None:
            before, after = comment_count(ptr, number, _BEFORE), comment_count(ptr, number, _AFTER)
        node = _Node(
            number,
            parent,
            move_of(raw, chess960) if raw else Move.null(),
            nags,
            [text for text, _ in comments(ptr, number, _BEFORE, before)] if before else [],  # type: ignore[misc]
            comments(ptr, number, _AFTER, after) if after else [],  # type: ignore[misc]
        )
        nodes.append(node)
        nodes[parent].children.append(node)
    return nodes


def _joined(texts: List[str]) -> str:
    if len(texts) < 2:
        return texts[0] if texts else ""
    return " ".join(text for text in texts if text)


def _build(game: GameNode, nodes: List[_Node]) -> None:
    """``GameBuilder``'s tree from the library's nodes, made directly."""
    game.comment = _joined([game.comment] + nodes[0].after)
    made: List[GameNode] = [game]
    for node in nodes[1:]:
        # Through add_variation, which a program's node classes may override (python-chess's
        # builder calls it too).
        parent = made[node.parent]
        made.append(parent.add_variation(node.move, comment=_joined(node.after), starting_comment=_joined(node.before), nags=node.nags))


def _written(ptr: Any, nodes: List[_Node], body: str) -> Tuple[List[str], List[int]]:
    """The moves as written, without the check sign python-chess's tokens leave out, and where
    each was in ``body``: found in turn in the text without its comments (between two moves
    stand only numbers, NAGs and parentheses)."""
    blanked = _COMMENT.sub(lambda m: " " * len(m.group()), body)
    tokens, places, at = [""], [0], 0
    for node in nodes[1:]:
        written = _native.read_text(lib.chess_node_san, ptr, node.number, size=_native.SAN_MAX)
        found = blanked.find(written, at)
        if found >= 0:
            at = found + len(written)
        tokens.append(written.rstrip("+#"))
        places.append(found if found >= 0 else at)
    return tokens, places


def _replay(
    visitor: BaseVisitor[Any],
    nodes: List[_Node],
    written: Tuple[List[str], List[int]],
    board: Board,
    cuts: Dict[int, str],
    openings: Dict[int, str],
    results: List[Tuple[int, str]],
) -> bool:
    """Calls ``visitor`` for the library's tree as python-chess's reader would have for its
    text, in the text's order (``written``: each node's token and place, ``results``: the main
    line's results and their places, taken off as visited); False when a move could not be
    read (``handle_error`` was called, the rest of the line skipped, as python-chess does).
    ``cuts``: the nodes after which a variation was cut at a move that could not be played,
    with that move's token; ``openings``: the nodes followed by a variation whose first move
    could not be played."""
    custom_parse = getattr(visitor.parse_san, "__func__", None) is not BaseVisitor.parse_san
    tokens, places = written
    for comment in nodes[0].after:
        visitor.visit_comment(comment)

    def results_before(place: int) -> None:
        while results and results[0][0] < place:
            visitor.visit_result(results.pop(0)[1])

    def comments_before(after: List[Tuple[int, str]], place: int) -> None:
        while after and after[0][0] < place:
            at, text = after.pop(0)
            results_before(at)
            visitor.visit_comment(text)

    def line(node: _Node, board: Board, sidelines: bool) -> bool:
        while True:
            results_before(places[node.number])
            for comment in node.before:
                visitor.visit_comment(comment)
            if visitor.begin_parse_san(board, tokens[node.number]) is SKIP:
                visitor.visit_board(board)
                return True
            move = node.move
            if custom_parse:
                try:
                    move = visitor.parse_san(board, tokens[node.number])
                except ValueError as error:
                    visitor.handle_error(error)
                    return False
            visitor.visit_move(board, move)
            board.push(move)
            visitor.visit_board(board)
            for nag in node.nags:
                visitor.visit_nag(nag)
            # The comments after the move, and those after the variations that follow it.
            after = list(zip(node.after_at, node.after))
            alternatives = nodes[node.parent].children[1:] if sidelines else []
            first = places[alternatives[0].number] if alternatives else _END
            comments_before(after, first)
            opening = openings.get(node.number)
            if opening is not None:
                if visitor.begin_variation() is not SKIP:
                    branch = board.copy()
                    branch.pop()
                    _failed_move(visitor, branch, opening, ValueError(f"illegal san: {opening!r} in {branch.fen()}"))
                visitor.end_variation()
            cut = cuts.get(node.number)
            if cut is not None:
                _failed_move(visitor, board, cut, ValueError(f"illegal san: {cut!r} in {board.fen()}"))
                return True
            for i, alternative in enumerate(alternatives):
                if visitor.begin_variation() is not SKIP:
                    branch = board.copy()
                    branch.pop()
                    line(alternative, branch, False)
                visitor.end_variation()
                following = places[alternatives[i + 1].number] if i + 1 < len(alternatives) else _END
                comments_before(after, following)
            if not node.children:
                return True
            node, sidelines = node.children[0], True

    children = nodes[0].children
    return line(children[0], board, True) if children else True


def _offset(text: str, line: int, column: int) -> int:
    """The index in ``text`` of a place the library names by line and column (from 1)."""
    lines = text.split("\n")
    return sum(len(text_line) + 1 for text_line in lines[: line - 1]) + column - 1


def _token_at(text: str, at: int) -> str:
    """The move written at ``at``, as python-chess's token would have it."""
    token = text[at : text.find("\n", at) if "\n" in text[at:] else len(text)]
    for i, char in enumerate(token):
        if char in _TOKEN_ENDS:
            return token[:i]
    return token


def _failed_move(visitor: BaseVisitor[Any], board: Board, token: str, fallback: Exception) -> None:
    """A move the library could not read, through the visitor as python-chess reads it: its
    ``parse_san`` error goes to ``handle_error`` (``fallback`` should it read the move)."""
    if visitor.begin_parse_san(board, token) is not SKIP:
        try:
            visitor.parse_san(board, token)
        except ValueError as error:
            visitor.handle_error(error)
        else:
            visitor.handle_error(fallback)
    visitor.visit_board(board)


def _outside_comments(text: str) -> str:
    return _COMMENT.sub(" ", text)


_CUT = re.compile(r"line (\d+), column (\d+): a move in a variation cannot be played")


def _variation_cuts(core: Any, text: str, board: Board) -> List[Tuple[int, bool, Board, str]]:
    """The variations the library cut at a move it could not play (python-chess reports the
    move as an error): for each, in text order, the node read last before the move, whether
    the move opened a variation (an alternative to that node), the board before the move and
    the move's token. The board is
    found by reading the text up to the move again (its open variations closed): the last node
    read is the move before it, or the one the variation is an alternative to."""
    cuts: List[Tuple[int, bool, Board, str]] = []
    for warning in core.warnings:
        found = _CUT.match(warning)
        if found is None:
            continue
        at = _offset(text, int(found.group(1)), int(found.group(2)))
        before = _outside_comments(text[:at])
        head = text[:at] + ")" * max(before.count("(") - before.count(")"), 0)
        prefix_game = next(read_pgn(head.encode("utf-8"), variants=True))
        ptr = prefix_game._ptr
        last = lib.chess_node_count(ptr) - 1
        if last < 1:
            continue
        written = _native.read_text(lib.chess_node_san, ptr, last, size=_native.SAN_MAX)
        between = [c for c in _outside_comments(text[text.rfind(written, 0, at) + len(written) : at]) if c in "()"]
        if between not in ([], ["("]):
            continue  # after a variation closed: not told apart here
        node = last if not between else lib.chess_node_parent(ptr, last)
        path = []
        while node not in (0, _NODE_NONE):
            path.append(node)
            node = lib.chess_node_parent(ptr, node)
        position = board.copy()
        for number in reversed(path):
            raw = lib.chess_node_move(ptr, number)
            position.push(move_of(raw, board.chess960) if raw else Move.null())
        cuts.append((last, bool(between), position, _token_at(text, at)))
    return cuts


def _fast_builder(visitor: BaseVisitor[Any]) -> bool:
    """Whether ``visitor`` builds its game as ``GameBuilder`` does, so that the tree can be made
    directly (its ``handle_error`` and ``Game`` class may be its own)."""
    kind = type(visitor)
    if not isinstance(visitor, GameBuilder):
        return False
    return all(
        getattr(kind, name) is getattr(GameBuilder, name)
        for name in ("visit_move", "visit_comment", "visit_nag", "begin_variation", "end_variation", "visit_board", "begin_parse_san", "parse_san", "visit_result")
    )


def read_game(handle: TextIO, *, Visitor: Callable[[], BaseVisitor[Any]] = GameBuilder) -> Any:
    """Reads the next game of a text stream through a new ``Visitor()`` and gives its result
    (a ``Game`` by default); None at the end of the stream. The handle is left just after the
    game: at the line after the blank line that ends it."""
    read = _read_lines(handle)
    if read is None:
        return None
    tags, movetext = read
    visitor = Visitor()
    skipping = visitor.begin_game() is SKIP
    headers: Optional[Headers] = None
    if not skipping:
        managed = visitor.begin_headers()
        headers = managed if isinstance(managed, Headers) else Headers({})
        for name, value in tags:
            visitor.visit_header(name, value)
            if headers is not managed:
                headers[name] = value
        skipping = visitor.end_headers() is SKIP
    if not skipping:
        assert headers is not None
        try:
            board_type = headers.variant()
        except ValueError as error:
            visitor.handle_error(error)
            board_type = Board
        try:
            board = headers.board() if board_type is not Board else start_board(Board, headers.get("FEN", STARTING_FEN), headers.is_chess960())
        except ValueError as error:
            visitor.handle_error(error)
        else:
            visitor.visit_board(board)
            _visit_movetext(visitor, board, movetext)
    visitor.end_game()
    return visitor.result()


def _start_tags(board: Board) -> str:
    """The tags that have the library read a movetext from ``board``: its variant and its FEN
    when not the variant's start, then the blank line; nothing for the standard start."""
    if type(board).uci_variant not in (None, "chess"):  # a chess.variant board
        start = board.fen()
        fen = "" if start == type(board).starting_fen else f'[FEN "{start}"]\n'
        return f'[Variant "{type(board).aliases[0]}"]\n{fen}\n'
    start = board.fen(shredder=board.chess960)
    prefix = ("" if start == STARTING_FEN else f'[FEN "{start}"]\n') + ('[Variant "Chess960"]\n' if board.chess960 else "")
    return prefix + "\n" if prefix else ""


def _visit_movetext(visitor: BaseVisitor[Any], board: Board, movetext: _Movetext) -> None:
    """Has the library read the movetext from ``board`` and calls ``visitor`` for it, the
    results of the main line included; a move the library could not read goes to
    ``handle_error`` (after what came before it): in the main line it ends the game, in a
    variation the variation."""
    # A comment still open at the end of the text runs to its end, for python-chess.
    body = "".join(movetext.parts)
    if movetext.in_comment:
        movetext.end_comment()
        body += "}"
    failed: Any = None
    error_at = len(body)
    if body and not body.isspace():
        prefix = _start_tags(board)
        text = prefix + body
        core = next(read_pgn(text.encode("utf-8"), variants=True))
        nodes = _library_tree(core._ptr, board.chess960, movetext)
        cuts = _variation_cuts(core, text, board) if lib.chess_game_warning_count(core._ptr) else []
        if _fast_builder(visitor):
            _build(visitor.game, nodes)  # type: ignore[attr-defined]
            for _, _, position, token in cuts:
                _failed_move(visitor, position, token, ValueError(f"illegal san: {token!r} in {position.fen()}"))
        else:
            ends = {cut[0]: cut[3] for cut in cuts if not cut[1]}
            openings = {cut[0]: cut[3] for cut in cuts if cut[1]}
            written = _written(core._ptr, nodes, body)
            if not _replay(visitor, nodes, written, board.copy(), ends, openings, movetext.results):
                return
        if core.error is not None:
            failed = core.error
            if failed.code in _MOVE_CODES and failed.line >= 1:
                at = _offset(text, failed.line, failed.column)
                error_at = at - len(prefix)
                line_end = board.copy()
                node = nodes[0]
                while node.children:
                    node = node.children[0]
                    line_end.push(node.move)
                failed = (line_end, _token_at(text, at), failed)
    for at, result in movetext.results:
        if at < error_at:
            visitor.visit_result(result)
    if isinstance(failed, tuple):
        _failed_move(visitor, *failed)
    elif failed is not None:
        visitor.handle_error(failed)


def read_headers(handle: TextIO) -> Optional[Headers]:
    """The headers of the next game, its movetext skipped; None at the end."""
    return read_game(handle, Visitor=HeadersBuilder)  # type: ignore[no-any-return]


def skip_game(handle: TextIO) -> bool:
    """Skips the next game; whether there was one."""
    return bool(read_game(handle, Visitor=SkipVisitor))
