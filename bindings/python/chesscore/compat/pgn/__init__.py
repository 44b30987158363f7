"""python-chess's ``chess.pgn``: games read from PGN (``read_game``, ``read_headers``,
``skip_game``), built and edited by a program (``Game``, ``GameNode``, ``ChildNode``), walked by
visitors (``BaseVisitor``, ``GameBuilder``, ``StringExporter``, ``FileExporter``, ...) and
written back as python-chess writes them. The library reads and checks the movetext and replays
the moves; the tree is made of plain Python objects.

    >>> import io
    >>> import chesscore.compat.pgn
    >>> pgn = io.StringIO('[White "Morphy"]\\n\\n1. e4 {best} e5 (1... c5 $1) 2. Nf3 *\\n')
    >>> game = chesscore.compat.pgn.read_game(pgn)
    >>> game.headers["White"], game.headers["Result"]
    ('Morphy', '*')
    >>> [move.uci() for move in game.mainline_moves()]
    ['e2e4', 'e7e5', 'g1f3']
    >>> node = game.next()
    >>> node.comment, [v.san() for v in node.variations], node.variations[1].nags
    ('best', ['e5', 'c5'], {1})
    >>> node.variations[1].set_clock(61.5)
    >>> print(game)
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "Morphy"]
    [Black "?"]
    [Result "*"]
    <BLANKLINE>
    1. e4 { best } 1... e5 ( 1... c5 $1 { [%clk 0:01:01.5] } ) 2. Nf3 *
    >>> chesscore.compat.pgn.read_game(pgn) is None
    True
"""

from ._reader import read_game, read_headers, skip_game
from .._squares import Color, Square
from ._tree import (
    SKIP,
    TAG_ROSTER,
    ChildNode,
    Game,
    GameNode,
    GameT,
    Headers,
    HeadersT,
    Mainline,
    MainlineMapT,
    ResultT,
    SkipType,
    TimeControl,
    TimeControlPart,
    TimeControlType,
    parse_time_control,
)
from ._visitors import (
    LOGGER,
    BaseVisitor,
    BoardBuilder,
    FileExporter,
    GameBuilder,
    HeadersBuilder,
    SkipVisitor,
    StringExporter,
    StringExporterMixin,
)

# Numeric Annotation Glyphs python-chess names.
NAG_NULL = 0
NAG_GOOD_MOVE = 1
NAG_MISTAKE = 2
NAG_BRILLIANT_MOVE = 3
NAG_BLUNDER = 4
NAG_SPECULATIVE_MOVE = 5
NAG_DUBIOUS_MOVE = 6
NAG_FORCED_MOVE = 7
NAG_SINGULAR_MOVE = 8
NAG_WORST_MOVE = 9
NAG_DRAWISH_POSITION = 10
NAG_QUIET_POSITION = 11
NAG_ACTIVE_POSITION = 12
NAG_UNCLEAR_POSITION = 13
NAG_WHITE_SLIGHT_ADVANTAGE = 14
NAG_BLACK_SLIGHT_ADVANTAGE = 15
NAG_WHITE_MODERATE_ADVANTAGE = 16
NAG_BLACK_MODERATE_ADVANTAGE = 17
NAG_WHITE_DECISIVE_ADVANTAGE = 18
NAG_BLACK_DECISIVE_ADVANTAGE = 19
NAG_WHITE_ZUGZWANG = 22
NAG_BLACK_ZUGZWANG = 23
NAG_WHITE_MODERATE_COUNTERPLAY = 132
NAG_BLACK_MODERATE_COUNTERPLAY = 133
NAG_WHITE_DECISIVE_COUNTERPLAY = 134
NAG_BLACK_DECISIVE_COUNTERPLAY = 135
NAG_WHITE_MODERATE_TIME_PRESSURE = 136
NAG_BLACK_MODERATE_TIME_PRESSURE = 137
NAG_WHITE_SEVERE_TIME_PRESSURE = 138
NAG_BLACK_SEVERE_TIME_PRESSURE = 139
NAG_NOVELTY = 146

__all__ = [
    "BaseVisitor", "BoardBuilder", "ChildNode", "FileExporter", "Game", "GameBuilder", "GameNode", "Headers",
    "HeadersBuilder", "LOGGER", "Mainline", "SKIP", "SkipType", "SkipVisitor", "StringExporter", "StringExporterMixin",
    "TAG_ROSTER", "Color", "Square", "GameT", "HeadersT", "MainlineMapT", "ResultT", "TimeControl", "TimeControlPart", "TimeControlType", "parse_time_control", "read_game",
    "read_headers", "skip_game",
]  # fmt: skip
__all__ += [name for name in list(globals()) if name.startswith("NAG_")]
