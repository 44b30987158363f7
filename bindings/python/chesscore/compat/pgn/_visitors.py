"""python-chess's visitors: ``BaseVisitor`` (what ``read_game`` and ``accept`` call, in PGN
order), the builders of games, headers and boards, ``SkipVisitor``, and the exporters writing
PGN text."""

from __future__ import annotations

import abc
import logging
from typing import Generic, List, Optional, TextIO, Type

from .._board import Board
from .._moves import Move
from .._squares import WHITE
from ._tree import SKIP, Game, GameNode, GameT, Headers, HeadersT, ResultT, SkipType

# The logger python-chess reports parse errors to, so that a program's way of silencing them
# (``logging.getLogger("chess.pgn").setLevel(...)``) works unchanged.
LOGGER = logging.getLogger("chess.pgn")



class BaseVisitor(abc.ABC, Generic[ResultT]):
    """What a walk over a game calls, in PGN order; every method but ``result`` does nothing
    unless overridden. ``begin_game``, ``end_headers``, ``begin_variation`` and
    ``begin_parse_san`` may return ``SKIP``."""

    def begin_game(self) -> Optional[SkipType]:
        pass

    def begin_headers(self) -> Optional[Headers]:
        pass

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        pass

    def end_headers(self) -> Optional[SkipType]:
        pass

    def begin_parse_san(self, board: Board, san: str) -> Optional[SkipType]:
        pass

    def parse_san(self, board: Board, san: str) -> Move:
        """The move of a SAN read (``board.parse_san``); override to read a dialect."""
        return board.parse_san(san)

    def visit_move(self, board: Board, move: Move) -> None:
        """A move, with the board before it (to leave as it was)."""

    def visit_board(self, board: Board) -> None:
        """The start position, and the position after each move (to leave as it was)."""

    def visit_comment(self, comment: str) -> None:
        pass

    def visit_nag(self, nag: int) -> None:
        pass

    def begin_variation(self) -> Optional[SkipType]:
        pass

    def end_variation(self) -> None:
        pass

    def visit_result(self, result: str) -> None:
        pass

    def end_game(self) -> None:
        pass

    @abc.abstractmethod
    def result(self) -> ResultT:
        """What the visit made."""

    def handle_error(self, error: Exception) -> None:
        """A problem met reading: raised again, unless overridden."""
        raise error


class GameBuilder(BaseVisitor[GameT]):
    """Builds a ``Game`` (or an instance of the class given as ``Game``): ``read_game``'s
    default visitor. Errors go to the game's ``errors`` and to the ``chess.pgn`` logger."""

    def __init__(self, *, Game: Type[GameT] = Game) -> None:  # type: ignore[assignment]
        self.Game = Game

    def begin_game(self) -> None:
        self.game: GameT = self.Game()
        self.variation_stack: List[GameNode] = [self.game]
        self.starting_comment = ""
        self.in_variation = False

    def begin_headers(self) -> Headers:
        return self.game.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.game.headers[tagname] = tagvalue

    def visit_nag(self, nag: int) -> None:
        self.variation_stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self.variation_stack[-1].parent
        assert parent is not None, "begin_variation called, but root node on top of stack"
        self.variation_stack.append(parent)
        self.in_variation = False

    def end_variation(self) -> None:
        self.variation_stack.pop()

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def visit_comment(self, comment: str) -> None:
        top = self.variation_stack[-1]
        if self.in_variation or (top.parent is None and top.is_end()):
            # After a move, or before the game's first: the node's comment.
            top.comment = " ".join(text for text in (top.comment, comment) if text)
        else:  # at the start of a variation: its first move's
            self.starting_comment = " ".join(text for text in (self.starting_comment, comment) if text)

    def visit_move(self, board: Board, move: Move) -> None:
        node = self.variation_stack[-1].add_variation(move)
        node.starting_comment = self.starting_comment
        self.variation_stack[-1] = node
        self.starting_comment = ""
        self.in_variation = True

    def handle_error(self, error: Exception) -> None:
        """Keeps ``error`` in the game's ``errors`` and logs it; override to do otherwise."""
        LOGGER.error("%s while parsing %r", error, self.game)
        self.game.errors.append(error)

    def result(self) -> GameT:
        return self.game


class HeadersBuilder(BaseVisitor[HeadersT]):
    """Reads the headers only (of the class given as ``Headers``), skipping the movetext."""

    def __init__(self, *, Headers: Type[HeadersT] = Headers) -> None:  # type: ignore[assignment]
        self.Headers = Headers

    def begin_headers(self) -> HeadersT:
        self.headers: HeadersT = self.Headers({})
        return self.headers

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.headers[tagname] = tagvalue

    def end_headers(self) -> SkipType:
        return SKIP

    def result(self) -> HeadersT:
        return self.headers


class BoardBuilder(BaseVisitor[Board]):
    """The board at the end of the main line, with the main line's moves on its stack."""

    def begin_game(self) -> None:
        self.skip_variation_depth = 0

    def begin_variation(self) -> SkipType:
        self.skip_variation_depth += 1
        return SKIP

    def end_variation(self) -> None:
        self.skip_variation_depth = max(self.skip_variation_depth - 1, 0)

    def visit_board(self, board: Board) -> None:
        if not self.skip_variation_depth:
            self.board = board

    def result(self) -> Board:
        return self.board


class SkipVisitor(BaseVisitor[bool]):
    """Skips a game: ``skip_game``'s visitor."""

    def begin_game(self) -> SkipType:
        return SKIP

    def end_headers(self) -> SkipType:
        return SKIP

    def begin_variation(self) -> SkipType:
        return SKIP

    def result(self) -> bool:
        return True


class StringExporterMixin:
    """Writes PGN: a ``[Name "value"]`` line per tag (``headers``), a blank line, then the
    movetext in lines of at most ``columns`` characters (None: one line), with comments and
    NAGs (``comments``) and variations (``variations``)."""

    def __init__(self, *, columns: Optional[int] = 80, headers: bool = True, comments: bool = True, variations: bool = True):
        self.columns = columns
        self.headers = headers
        self.comments = comments
        self.variations = variations
        self.found_headers = False
        self.force_movenumber = True
        self.lines: List[str] = []
        self.current_line = ""
        self.variation_depth = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.lines.append(self.current_line.rstrip())
        self.current_line = ""

    def write_token(self, token: str) -> None:
        if self.columns is not None and len(self.current_line) + len(token) > self.columns:
            self.flush_current_line()
        self.current_line += token

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.lines.append(line.rstrip())

    def end_game(self) -> None:
        self.write_line()

    def begin_headers(self) -> None:
        self.found_headers = False

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if self.headers:
            self.found_headers = True
            self.write_line(f'[{tagname} "{tagvalue}"]')

    def end_headers(self) -> None:
        if self.found_headers:
            self.write_line()

    def begin_variation(self) -> Optional[SkipType]:
        self.variation_depth += 1
        if not self.variations:
            return SKIP
        self.write_token("( ")
        self.force_movenumber = True
        return None

    def end_variation(self) -> None:
        self.variation_depth -= 1
        if self.variations:
            self.write_token(") ")
            self.force_movenumber = True

    def _writes_notes(self) -> bool:
        return self.comments and (self.variations or not self.variation_depth)

    def visit_comment(self, comment: str) -> None:
        if self._writes_notes():
            self.write_token(f"{{ {comment.replace('}', '').strip()} }} ")
            self.force_movenumber = True

    def visit_nag(self, nag: int) -> None:
        if self._writes_notes():
            self.write_token(f"${nag} ")

    def visit_move(self, board: Board, move: Move) -> None:
        if self.variations or not self.variation_depth:
            if board.turn == WHITE:
                self.write_token(f"{board.fullmove_number}. ")
            elif self.force_movenumber:
                self.write_token(f"{board.fullmove_number}... ")
            self.write_token(board.san(move) + " ")
            self.force_movenumber = False

    def visit_result(self, result: str) -> None:
        self.write_token(result + " ")


class StringExporter(StringExporterMixin, BaseVisitor[str]):
    """The PGN of the games visited, as a str without a line end at its end.

    >>> import chesscore.compat.pgn
    >>> game = chesscore.compat.pgn.Game()
    >>> node = game.add_variation(game.board().parse_san("e4"), comment="best")
    >>> print(game.accept(chesscore.compat.pgn.StringExporter(headers=False)))
    1. e4 { best } *
    """

    def result(self) -> str:
        lines = self.lines + [self.current_line.rstrip()] if self.current_line else self.lines
        return "\n".join(lines).rstrip()

    def __str__(self) -> str:
        return self.result()


class FileExporter(StringExporterMixin, BaseVisitor[int]):
    """Writes each game visited to a text file ``handle``, a blank line after each; the result
    is the number of characters written for the last game."""

    def __init__(self, handle: TextIO, *, columns: Optional[int] = 80, headers: bool = True, comments: bool = True, variations: bool = True):
        super().__init__(columns=columns, headers=headers, comments=comments, variations=variations)
        self.handle = handle

    def begin_game(self) -> None:
        self.written: int = 0

    def flush_current_line(self) -> None:
        if self.current_line:
            self.written += self.handle.write(self.current_line.rstrip())
            self.written += self.handle.write("\n")
        self.current_line = ""

    def write_line(self, line: str = "") -> None:
        self.flush_current_line()
        self.written += self.handle.write(line.rstrip())
        self.written += self.handle.write("\n")

    def result(self) -> int:
        return self.written

    def __repr__(self) -> str:
        return f"<FileExporter at {id(self):#x}>"

    def __str__(self) -> str:
        return self.__repr__()
