"""Argument checks, shared by every public function: a wrong type raises ArgumentTypeError (a
TypeError), a value the library cannot take the chesscore.Error of its family (a ValueError)."""

from __future__ import annotations

import os
from typing import Mapping, Optional, Tuple, Type, TypeVar, Union

from .errors import ArgumentTypeError, ErrorCode, error_for, raise_for

T = TypeVar("T")


def of_type(value: object, types: Union[Type[T], Tuple[type, ...]], what: str) -> T:
    """``value`` if it is an instance of ``types``. A bool is no int here unless ``types`` names
    bool: True as a depth, a square or a count is a mistake, not 1."""
    allowed = types if isinstance(types, tuple) else (types,)
    if isinstance(value, allowed) and (bool in allowed or not isinstance(value, bool)):
        return value  # type: ignore[return-value]
    expected = " or ".join("None" if t is type(None) else t.__name__ for t in allowed)
    raise ArgumentTypeError(ErrorCode.INVALID_ARGUMENT, f"{what} must be {expected}, not {type(value).__name__}")


def integer(
    value: object, what: str, low: int, high: Optional[int] = None, code: ErrorCode = ErrorCode.INVALID_ARGUMENT
) -> int:
    """An int from ``low`` to ``high`` (inclusive; no upper bound when None), else the error of
    ``code``."""
    number = of_type(value, int, what)
    if number < low or (high is not None and number > high):
        bounds = f"at least {low}" if high is None else f"from {low} to {high}"
        raise_for(code, f"{what} must be {bounds}, not {number}")
    return number


def flag(value: object, what: str, bit: int) -> int:
    """``bit`` when the bool ``value`` is True, else 0: one bit of a C flag set."""
    return bit if of_type(value, bool, what) else 0


def option(value: object, choices: Mapping[str, T], what: str) -> T:
    """The value of one of the names in ``choices``."""
    name = of_type(value, str, what)
    if name not in choices:
        raise_for(ErrorCode.INVALID_ARGUMENT, f"{what} must be one of {', '.join(map(repr, choices))}, not {name!r}")
    return choices[name]


def utf8(value: object, what: str) -> bytes:
    """A str as UTF-8 (a lone surrogate cannot be written: INVALID_TEXT, not UnicodeEncodeError)."""
    try:
        return of_type(value, str, what).encode("utf-8")
    except UnicodeEncodeError:
        raise error_for(ErrorCode.INVALID_TEXT, f"{what} holds a lone surrogate, which UTF-8 cannot write") from None


def text(value: object, what: str) -> bytes:
    """A str as the NUL-terminated UTF-8 C expects: an embedded NUL would cut it short."""
    data = utf8(value, what)
    if b"\0" in data:
        raise_for(ErrorCode.INVALID_TEXT, f"{what} holds a NUL character")
    return data


def path(value: object) -> bytes:
    """A path (str, bytes or os.PathLike) as the bytes the system names the file by, as
    ``open`` takes it (``os.fsencode``: a name that is not UTF-8 keeps its bytes)."""
    of_type(value, (str, bytes, os.PathLike), "path")
    try:
        name = os.fsencode(value)  # type: ignore[arg-type]
    except UnicodeEncodeError:
        raise error_for(ErrorCode.INVALID_TEXT, f"the path {value!r} cannot be encoded for this system") from None
    if b"\0" in name:
        raise_for(ErrorCode.INVALID_TEXT, "the path holds a NUL character")
    return name
