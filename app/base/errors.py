"""One family of input errors, all under ValueError, each echoing the bad input."""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import Msg


class NotationError(ValueError):
    """Tile notation that cannot be read; names the text and the position."""

    def __init__(self, text: str, position: int, message: str) -> None:
        self.text = text
        self.position = position
        self.message = message
        self.said = Msg("{message} (in {text} at position {position})", message=message,
                        text=repr(text), position=position + 1)
        super().__init__(self.said)

    def __str__(self) -> str:
        return self.said   # a Msg: the page says it in the reader's language


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with one field of a hand description."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class HandError(ValueError):
    """A hand description with one or more field errors."""

    def __init__(self, errors: list[FieldError] | tuple[FieldError, ...]) -> None:
        self.errors = tuple(errors)
        super().__init__("; ".join(str(e) for e in self.errors))

    @classmethod
    def single(cls, field: str, message: str) -> HandError:
        """Make an error about a single field."""
        return cls([FieldError(field, message)])


class RulesetError(ValueError):
    """A ruleset file that does not load; names the file and the key."""


def refuse(errors: list[FieldError] | tuple[FieldError, ...]) -> None:
    """Raise the errors as one HandError, if there are any."""
    if errors:
        raise HandError(list(errors))


def message_of(err: ValueError) -> str:
    """An error's sentence, kept as the Msg it was raised with so a page can say it in its
    language; else its English text."""
    first = err.args[0] if len(err.args) == 1 else None
    return first if isinstance(first, Msg) else str(err)
