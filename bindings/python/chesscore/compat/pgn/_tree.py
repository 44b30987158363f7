"""The game tree of python-chess's ``chess.pgn``: ``Headers``, ``GameNode`` (``Game`` at the root,
``ChildNode`` below), ``Mainline``, time controls and the comment commands (``[%clk ...]``,
``[%emt ...]``, ``[%eval ...]``, ``[%csl ...]``/``[%cal ...]``). Plain Python objects that a
program edits as it likes; boards and SAN come from the compat ``Board``."""

from __future__ import annotations

import abc
import dataclasses
import enum
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, MutableMapping, Optional, Set, Tuple, Type, TypeVar, Union

from ...engine import Cp, Mate, PovScore
from ...svg import Arrow
from .._board import Board
from .._moves import Move
from .._squares import ROOK, SQUARE_NAMES, STARTING_FEN, WHITE, Color, Square, square, square_file, square_rank

TAG_ROSTER = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
_ROSTER_DEFAULTS = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?", "Black": "?", "Result": "*"}
_ROSTER_SET = frozenset(TAG_ROSTER)


class SkipType(enum.Enum):
    """What a visitor returns to have a game, its movetext or a variation skipped."""

    SKIP = None


SKIP = SkipType.SKIP


# -- Headers

_TAG_NAME = re.compile(r"[0-9A-Za-z][-0-9A-Za-z_+#=:]*")
# Variant names a standard board plays (python-chess's aliases of its Board), lowercased.
_STANDARD_NAMES = frozenset(["standard", "chess", "classical", "normal", "illegal", "from position"])
_CHESS960_NAMES = frozenset(["chess960", "chess 960", "fischerandom", "fischerrandom", "fischer random"])
_WILD_NAMES = frozenset(["wild/0", "wild/1", "wild/2", "wild/3", "wild/4", "wild/5", "wild/6", "wild/7", "wild/8", "wild/8a"])

HeadersT = TypeVar("HeadersT", bound="Headers")


class Headers(MutableMapping[str, str]):
    """A game's tags: the Seven Tag Roster first, in its order, then the others in the order
    set. Names other than the roster's are checked as PGN tag names, and their values may hold
    no line break."""

    def __init__(self, data: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None, **kwargs: str) -> None:
        self._roster: Dict[str, str] = {}
        self._others: Dict[str, str] = {}
        self.update(_ROSTER_DEFAULTS if data is None else data, **kwargs)

    def __setitem__(self, key: str, value: str) -> None:
        if key in _ROSTER_SET:
            self._roster[key] = value
        elif not _TAG_NAME.fullmatch(key):
            raise ValueError(f"invalid pgn header tag: {key!r}")
        elif "\n" in value or "\r" in value:
            raise ValueError(f"line break in pgn header {key}: {value!r}")
        else:
            self._others[key] = value

    def __getitem__(self, key: str) -> str:
        return self._roster[key] if key in _ROSTER_SET else self._others[key]

    def __delitem__(self, key: str) -> None:
        del (self._roster if key in _ROSTER_SET else self._others)[key]

    def __iter__(self) -> Iterator[str]:
        roster = self._roster
        yield from (key for key in TAG_ROSTER if key in roster)
        yield from self._others

    def __len__(self) -> int:
        return len(self._roster) + len(self._others)

    def copy(self: HeadersT) -> HeadersT:
        return type(self)(self)

    def __copy__(self: HeadersT) -> HeadersT:
        return self.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.items())})"

    def is_chess960(self) -> bool:
        return self.get("Variant", "").lower() in _CHESS960_NAMES

    def is_wild(self) -> bool:
        return self.get("Variant", "").lower() in _WILD_NAMES

    def variant(self) -> Type[Board]:
        """The board class of the game's variant: ``Board`` for standard chess, Chess960 and
        the wild variants, else ``chess.variant.find_variant``'s (ValueError for an unknown
        name)."""
        name = self.get("Variant")
        if name is None or self.is_chess960() or self.is_wild() or name.lower() in _STANDARD_NAMES:
            return Board
        from ..variant import find_variant

        return find_variant(name)  # type: ignore[return-value]

    def board(self) -> Board:
        """A new board at the game's start: the ``FEN`` tag, else the variant's start."""
        board_type = self.variant()
        if board_type is not Board:
            return board_type(self.get("FEN", board_type.starting_fen))
        return start_board(board_type, self.get("FEN", STARTING_FEN), self.is_chess960())

    @classmethod
    def builder(cls: Type[HeadersT]) -> Any:
        from ._visitors import HeadersBuilder

        return HeadersBuilder(Headers=cls)


def start_board(board_type: Type[Board], fen: str, chess960: bool) -> Board:
    """A board of ``fen``, in Chess960 mode also when its castling rights need it (as
    python-chess switches a board to Chess960 for them)."""
    try:
        board = board_type(fen, chess960=chess960)
    except ValueError:
        if chess960:
            raise
        board = board_type(fen, chess960=True)  # castling rights only Chess960 reads, or the error
        if not board.has_chess960_castling_rights():
            raise
        return board
    if not chess960 and board.has_chess960_castling_rights():
        board = board_type(fen, chess960=True)
    return board


# -- Time controls


class TimeControlType(enum.Enum):
    UNKNOWN = 0
    UNLIMITED = 1
    STANDARD = 2
    RAPID = 3
    BLITZ = 4
    BULLET = 5


@dataclasses.dataclass
class TimeControlPart:
    moves: int = 0
    time: int = 0
    increment: float = 0
    delay: float = 0


@dataclasses.dataclass
class TimeControl:
    """A ``TimeControl`` tag: its periods (``parts``) and its kind (``type``)."""

    parts: List[TimeControlPart] = dataclasses.field(default_factory=list)
    type: TimeControlType = TimeControlType.UNKNOWN


def _time_control_part(text: str) -> TimeControlPart:
    period, plus, bonus = text.partition("+")
    part = TimeControlPart()
    if plus:
        if bonus[-1:] in ("d", "D"):
            part.delay = float(bonus[:-1])
        else:
            part.increment = float(bonus)
    moves, slash, seconds = period.partition("/")
    if slash:
        part.moves, part.time = int(moves), int(seconds.split("/")[0])
    else:
        part.time = int(moves)
    return part


def parse_time_control(time_control: str) -> TimeControl:
    """The ``TimeControl`` of a tag value (``40/7200:3600``, ``300+2``, ``-``, ``?``); ValueError
    for a malformed one."""
    control = TimeControl()
    if not time_control or time_control[0] == "?":
        return control
    if time_control[0] == "-":
        control.type = TimeControlType.UNLIMITED
        return control
    control.parts = [_time_control_part(text) for text in time_control.split(":")]
    if any(part.moves == 0 for part in control.parts[:-1]):
        raise ValueError("Only last part can be 'sudden death'.")
    first = control.parts[0]
    estimate = first.time + 60 * first.increment  # a 60-move game's time, in seconds
    for limit, kind in ((180, TimeControlType.BULLET), (900, TimeControlType.BLITZ), (3600, TimeControlType.RAPID)):
        if estimate < limit:
            control.type = kind
            break
    else:
        control.type = TimeControlType.STANDARD
    return control


# -- Comment commands. Each pattern catches one optional whitespace character on either side,
# so that removing a command leaves a single space where there were spaces on both sides.

_TIME = r"(\d+):(\d+):(\d+(?:\.\d*)?)"
_CLOCK = re.compile(r"(\s?)\[%clk\s" + _TIME + r"\](\s?)")
_EMT = re.compile(r"(\s?)\[%emt\s" + _TIME + r"\](\s?)")
_EVAL = re.compile(r"(\s?)\[%eval\s(?:#([-+]?\d+)|([-+]?(?:\d{1,10}\.?|\d{0,10}\.\d{1,2})))(?:,(\d+))?\](\s?)")
_MARK = r"[RGYB][a-h][1-8](?:[a-h][1-8])?"
_ARROWS = re.compile(r"(\s?)\[%c[sa]l\s(" + _MARK + r"(?:," + _MARK + r")*)\](\s?)")
_COLOR_OF_LETTER = {"R": "red", "G": "green", "Y": "yellow", "B": "blue"}
_LETTER_OF_COLOR = {"red": "R", "yellow": "Y", "blue": "B"}


def _replacer(command: str) -> Callable[["re.Match[str]"], str]:
    """What replaces a command found: ``command`` with the whitespace around it; for removal,
    the whitespace after it when there was some before it too."""
    if command:
        return lambda m: m.group(1) + command + m.group(m.re.groups)
    return lambda m: m.group(m.re.groups) if m.group(1) else ""


def _seconds(match: "re.Match[str]") -> float:
    return int(match.group(2)) * 3600 + int(match.group(3)) * 60 + float(match.group(4))


def _time_text(name: str, seconds: float) -> str:
    seconds = max(0, seconds)
    hours, rest = int(seconds // 3600), seconds % 3600
    minutes, rest = int(rest // 60), rest % 60
    shown = f"{rest:06.3f}".rstrip("0").rstrip(".")
    return f"[%{name} {hours:d}:{minutes:02d}:{shown}]"


def _arrow_pgn(arrow: Arrow) -> str:
    # The package's arrows may name their squares.
    tail, head = (end if isinstance(end, str) else SQUARE_NAMES[end] for end in (arrow.tail, arrow.head))
    return _LETTER_OF_COLOR.get(arrow.color or "", "G") + (tail if tail == head else tail + head)


def _arrow_of(text: str) -> Arrow:
    tail = SQUARE_NAMES.index(text[1:3])
    return Arrow(tail, SQUARE_NAMES.index(text[3:5]) if len(text) == 5 else tail, _COLOR_OF_LETTER[text[0]])


# -- Nodes

ResultT = TypeVar("ResultT")
GameT = TypeVar("GameT", bound="Game")
MoveKey = Union[int, Move, "GameNode"]


class GameNode(abc.ABC):
    """A node of a game tree: ``parent`` (None at the root), ``move`` (the move leading here,
    None at the root), ``variations`` (the children, main line first), ``comment``,
    ``starting_comment`` and ``nags``."""

    parent: Optional[GameNode]
    move: Optional[Move]
    variations: List[ChildNode]
    comment: str
    starting_comment: str
    nags: Set[int]

    def __init__(self, *, comment: str = "") -> None:
        self.parent = None
        self.move = None
        self.variations = []
        self.comment = comment
        self.starting_comment = ""
        self.nags = set()

    @abc.abstractmethod
    def board(self) -> Board:
        """A new board holding the position at this node."""

    @abc.abstractmethod
    def ply(self) -> int:
        """The half-moves up to this node, counted from the start position's move number."""

    def turn(self) -> Color:
        return self.ply() % 2 == 0

    def root(self) -> GameNode:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def game(self) -> Game:
        root = self.root()
        assert isinstance(root, Game), "GameNode not rooted in Game"
        return root

    def end(self) -> GameNode:
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def starts_variation(self) -> bool:
        parent = self.parent
        return parent is not None and bool(parent.variations) and parent.variations[0] != self

    def is_mainline(self) -> bool:
        node = self
        while node.parent is not None:
            siblings = node.parent.variations
            if not siblings or siblings[0] != node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        parent = self.parent
        return parent is None or not parent.variations or parent.variations[0] == self

    def __getitem__(self, move: MoveKey) -> ChildNode:
        if isinstance(move, int):
            return self.variations[move]
        for variation in self.variations:
            if variation.move == move or variation == move:
                return variation
        raise KeyError(move)

    def __contains__(self, move: MoveKey) -> bool:
        try:
            self[move]
        except KeyError:
            return False
        return True

    def variation(self, move: MoveKey) -> ChildNode:
        """The child by index, move or node."""
        return self[move]

    def has_variation(self, move: MoveKey) -> bool:
        return move in self

    def promote_to_main(self, move: MoveKey) -> None:
        variation = self[move]
        self.variations.remove(variation)
        self.variations.insert(0, variation)

    def promote(self, move: MoveKey) -> None:
        """Moves a variation one place up."""
        variations = self.variations
        i = variations.index(self[move])
        if i > 0:
            variations[i - 1], variations[i] = variations[i], variations[i - 1]

    def demote(self, move: MoveKey) -> None:
        """Moves a variation one place down."""
        variations = self.variations
        i = variations.index(self[move])
        if i + 1 < len(variations):
            variations[i], variations[i + 1] = variations[i + 1], variations[i]

    def remove_variation(self, move: MoveKey) -> None:
        self.variations.remove(self.variation(move))

    def add_variation(self, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()) -> ChildNode:
        """A new last child for ``move``."""
        return ChildNode(self, move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_main_variation(self, move: Move, *, comment: str = "", nags: Iterable[int] = ()) -> ChildNode:
        """A new first child for ``move``."""
        node = self.add_variation(move, comment=comment, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def next(self) -> Optional[ChildNode]:
        return self.variations[0] if self.variations else None

    def mainline(self) -> Mainline[ChildNode]:
        return Mainline(self, lambda node: node)

    def mainline_moves(self) -> Mainline[Move]:
        return Mainline(self, lambda node: node.move)

    def add_line(self, moves: Iterable[Move], *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()) -> GameNode:
        """Children for ``moves`` one after the other; the last gets ``comment`` (after the one
        it has) and ``nags``, and is returned."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = f"{node.comment} {comment}" if node.comment else comment
        node.nags.update(nags)
        return node

    # Comment commands, read from and written into ``comment``.

    def eval(self) -> Optional[PovScore]:
        """The first ``[%eval ...]`` of the comment, as seen by the side to move here (a mate in
        0 is against it)."""
        match = _EVAL.search(self.comment)
        if match is None:
            return None
        turn = self.turn()
        if match.group(2):
            mate = int(match.group(2))
            if mate == 0:
                return PovScore(Mate(0), turn)
            score: Union[Cp, Mate] = Mate(mate)
        else:
            score = Cp(round(float(match.group(3)) * 100))
        return PovScore(score if turn else -score, turn)

    def eval_depth(self) -> Optional[int]:
        match = _EVAL.search(self.comment)
        return int(match.group(4)) if match is not None and match.group(4) else None

    def set_eval(self, score: Optional[PovScore], depth: Optional[int] = None) -> None:
        """Replaces the first ``[%eval ...]`` (None: removes it), else appends one."""
        text = ""
        if score is not None:
            white: Any = score.white()  # type: ignore[no-untyped-call]
            suffix = "" if depth is None else f",{max(depth, 0):d}"
            cp = white.score()
            if cp is not None:
                text = f"[%eval {cp / 100:.2f}{suffix}]"
            elif white.mate():
                text = f"[%eval #{white.mate()}{suffix}]"
        self._set_command(_EVAL, text, " ")

    def arrows(self) -> List[Arrow]:
        """The marks of every ``[%csl ...]`` and ``[%cal ...]``: a square is an arrow from and to
        itself."""
        return [_arrow_of(text) for match in _ARROWS.finditer(self.comment) for text in match.group(2).split(",")]

    def set_arrows(self, arrows: Iterable[Union[Arrow, Tuple[Square, Square]]]) -> None:
        """Replaces the ``[%csl ...]`` and ``[%cal ...]`` of the comment by those of ``arrows``
        (``Arrow`` objects or (tail, head) pairs), written first."""
        squares: List[str] = []
        lines: List[str] = []
        for arrow in arrows:
            if not isinstance(arrow, Arrow):
                tail, head = arrow
                arrow = Arrow(tail, head)
            (squares if arrow.tail == arrow.head else lines).append(_arrow_pgn(arrow))
        comment = _ARROWS.sub(_replacer(""), self.comment)
        prefix = (f"[%csl {','.join(squares)}]" if squares else "") + (f"[%cal {','.join(lines)}]" if lines else "")
        if prefix and comment and comment[0] not in " \n":
            prefix += " "
        self.comment = prefix + comment

    def clock(self) -> Optional[float]:
        """The first ``[%clk ...]``: the mover's time left, in seconds."""
        match = _CLOCK.search(self.comment)
        return None if match is None else _seconds(match)

    def set_clock(self, seconds: Optional[float]) -> None:
        self._set_command(_CLOCK, "" if seconds is None else _time_text("clk", seconds), " \n")

    def emt(self) -> Optional[float]:
        """The first ``[%emt ...]``: the time the move took, in seconds."""
        match = _EMT.search(self.comment)
        return None if match is None else _seconds(match)

    def set_emt(self, seconds: Optional[float]) -> None:
        self._set_command(_EMT, "" if seconds is None else _time_text("emt", seconds), " \n")

    def _set_command(self, pattern: "re.Pattern[str]", text: str, ends: str) -> None:
        """Replaces the first match of ``pattern`` by ``text`` (removes it for ""), else appends
        ``text``, after a space unless the comment ends with one of ``ends``."""
        comment, found = pattern.subn(_replacer(text), self.comment, count=1)
        if not found and text:
            if comment and comment[-1] not in ends:
                comment += " "
            comment += text
        self.comment = comment

    # Visiting

    @abc.abstractmethod
    def accept(self, visitor: Any) -> Any:
        """Walks the tree from this node's move in PGN order through ``visitor``; its result."""

    def accept_subgame(self, visitor: Any) -> Any:
        """Walks the game as if it started after this node: the headers with ``FEN`` and
        ``SetUp`` of this position, then the moves after it."""
        if visitor.begin_game() is not SKIP:
            game = self.game()
            board = self.board()
            setup = Game.without_tag_roster()
            setup.setup(board)
            visitor.begin_headers()
            for name, value in game.headers.items():
                if name not in setup.headers:
                    visitor.visit_header(name, value)
            for name, value in setup.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                visitor.visit_board(board)
                if self.variations:
                    self.variations[0]._accept(board, visitor)
                visitor.visit_result(game.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        from ._visitors import StringExporter

        return str(self.accept(StringExporter(columns=None)))


class ChildNode(GameNode):
    """A node with a ``move`` and a ``parent``; made by ``add_variation`` and its kin."""

    parent: GameNode
    move: Move

    def __init__(self, parent: GameNode, move: Move, *, comment: str = "", starting_comment: str = "", nags: Iterable[int] = ()) -> None:
        self.parent = parent
        self.move = move
        self.variations = []
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags = set(nags)
        parent.variations.append(self)

    def _moves(self) -> Tuple[GameNode, List[Move]]:
        """The root, and the moves from it to here."""
        moves = []
        node: GameNode = self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        moves.reverse()
        return node, moves  # type: ignore[return-value]

    def board(self) -> Board:
        root, moves = self._moves()
        board = root.game().board()
        for move in moves:
            board.push(move)
        return board

    def ply(self) -> int:
        plies = 0
        node: GameNode = self
        while node.parent is not None:
            plies += 1
            node = node.parent
        return node.game().ply() + plies

    def san(self) -> str:
        return self.parent.board().san(self.move)

    def uci(self, *, chess960: Optional[bool] = None) -> str:
        """The move's UCI; castling as the king taking its rook when ``chess960`` (by default:
        when the game is Chess960), else as the king's two-square move from its home square."""
        board = self.parent.board()
        move = self.move
        if chess960 is None:
            chess960 = board.chess960
        if not board.is_castling(move):
            return move.uci()
        king, target = move.from_square, move.to_square
        rank, kingside = square_rank(king), square_file(target) > square_file(king)
        piece = board.piece_at(target)
        rook = target if piece is not None and piece.piece_type == ROOK else square(7 if kingside else 0, rank)
        if not chess960 and square_file(king) == 4 and square_file(rook) in (0, 7):
            rook = square(6 if kingside else 2, rank)
        return Move(king, rook).uci()

    def end(self) -> ChildNode:
        return super().end()  # type: ignore[return-value]

    def _accept_node(self, board: Board, visitor: Any) -> None:
        if self.starting_comment:
            visitor.visit_comment(self.starting_comment)
        visitor.visit_move(board, self.move)
        board.push(self.move)
        visitor.visit_board(board)
        board.pop()
        for nag in sorted(self.nags):
            visitor.visit_nag(nag)
        if self.comment:
            visitor.visit_comment(self.comment)

    def _accept(self, board: Board, visitor: Any, *, sidelines: bool = True) -> None:
        """Visits this node and the line after it, with the alternatives to each move (to this
        one when ``sidelines``) after the move: ``board`` is the position before this node's
        move, and comes back as it was."""
        # A frame: [node, its alternatives still to visit, pushed its move, in a variation].
        stack: List[List[Any]] = [[self, iter(self.parent.variations[1:] if sidelines else ()), False, False]]
        while stack:
            frame = stack[-1]
            node = frame[0]
            if frame[3]:
                frame[3] = False
                visitor.end_variation()
            if frame[2] is None:  # this line is done: its node's move comes off the board
                board.pop()
                stack.pop()
                continue
            if frame[2] is False:
                node._accept_node(board, visitor)
                frame[2] = True
            alternative = next(frame[1], None)
            if alternative is not None:
                if visitor.begin_variation() is not SKIP:
                    stack.append([alternative, iter(()), False, False])
                frame[3] = True
                continue
            if node.variations:
                board.push(node.move)
                frame[2] = None
                stack.append([node.variations[0], iter(node.variations[1:]), False, False])
            else:
                stack.pop()

    def accept(self, visitor: Any) -> Any:
        self._accept(self.parent.board(), visitor, sidelines=False)
        return visitor.result()

    def __repr__(self) -> str:
        try:
            board = self.parent.board()
            san = board.san(self.move)
        except ValueError:
            return f"<{type(self).__name__} at {id(self):#x} (dangling: {self.move})>"
        dots = "." if board.turn == WHITE else "..."
        return f"<{type(self).__name__} at {id(self):#x} ({board.fullmove_number}{dots} {san} ...)>"


class Game(GameNode):
    """The root of a game: ``headers`` (the Seven Tag Roster unless told otherwise), ``errors``
    (what went wrong reading it) and the move tree from its start position."""

    headers: Headers
    errors: List[Exception]

    def __init__(self, headers: Optional[Union[Mapping[str, str], Iterable[Tuple[str, str]]]] = None) -> None:
        super().__init__()
        self.headers = Headers(headers)
        self.errors = []

    def board(self) -> Board:
        return self.headers.board()

    def ply(self) -> int:
        return self.board().ply() if "FEN" in self.headers else 0

    def setup(self, board: Union[Board, str]) -> None:
        """Sets the start position (a board or a FEN): the ``FEN``, ``SetUp`` and ``Variant``
        tags."""
        if isinstance(board, str):
            board = start_board(Board, board, False)
        fen = board.fen()
        if fen == type(board).starting_fen:
            self.headers.pop("FEN", None)
            self.headers.pop("SetUp", None)
        else:
            self.headers["FEN"] = fen
            self.headers["SetUp"] = "1"
        if type(board).uci_variant != "chess":  # a chess.variant board: its name, and always its FEN
            self.headers["Variant"] = type(board).aliases[0]
            self.headers["FEN"] = fen
        elif board.chess960:
            self.headers["Variant"] = "Chess960"
        else:
            self.headers.pop("Variant", None)

    def accept(self, visitor: Any) -> Any:
        if visitor.begin_game() is not SKIP:
            for name, value in self.headers.items():
                visitor.visit_header(name, value)
            if visitor.end_headers() is not SKIP:
                board = self.board()
                visitor.visit_board(board)
                if self.comment:
                    visitor.visit_comment(self.comment)
                if self.variations:
                    self.variations[0]._accept(board, visitor)
                visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def time_control(self) -> TimeControl:
        return parse_time_control(self.headers.get("TimeControl", ""))

    @classmethod
    def from_board(cls: Type[GameT], board: Board) -> GameT:
        """A game of the moves of ``board``'s stack, from its root, with its result."""
        game = cls()
        game.setup(board.root())
        node: GameNode = game
        for move in board.move_stack:
            node = node.add_variation(move)
        game.headers["Result"] = board.result()
        return game

    @classmethod
    def without_tag_roster(cls: Type[GameT]) -> GameT:
        return cls(headers={})

    @classmethod
    def builder(cls: Type[GameT]) -> Any:
        from ._visitors import GameBuilder

        return GameBuilder(Game=cls)

    def __repr__(self) -> str:
        headers = self.headers
        errors = f", {len(self.errors)} errors" if self.errors else ""
        return (
            f"<{type(self).__name__} at {id(self):#x} ({headers.get('White', '?')!r} vs. {headers.get('Black', '?')!r}, "
            f"{headers.get('Date', '????.??.??')!r} at {headers.get('Site', '?')!r}{errors})>"
        )


MainlineMapT = TypeVar("MainlineMapT")


class Mainline(Iterable[MainlineMapT]):
    """The main line after ``start``, each node given through ``f``: iterable, reversible,
    visitable."""

    def __init__(self, start: GameNode, f: Callable[[ChildNode], MainlineMapT]) -> None:
        self.start = start
        self.f = f

    def __bool__(self) -> bool:
        return bool(self.start.variations)

    def __iter__(self) -> Iterator[MainlineMapT]:
        node = self.start
        while node.variations:
            node = node.variations[0]
            yield self.f(node)

    def __reversed__(self) -> Iterator[MainlineMapT]:
        node = self.start.end()
        while node.parent is not None and node != self.start:
            yield self.f(node)  # type: ignore[arg-type]
            node = node.parent

    def accept(self, visitor: Any) -> Any:
        node = self.start
        board = node.board()
        while node.variations:
            node = node.variations[0]
            node._accept_node(board, visitor)
            board.push(node.move)
        return visitor.result()

    def __str__(self) -> str:
        from ._visitors import StringExporter

        return str(self.accept(StringExporter(columns=None)))

    def __repr__(self) -> str:
        from ._visitors import StringExporter

        return f"<Mainline at {id(self):#x} ({self.accept(StringExporter(columns=None, comments=False))})>"
