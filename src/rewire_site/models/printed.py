"""Printed values: read the number a source printed, and check a stored value against it.

Sources print values as text: "61.91", "0.6191", "33.88 GB", "56.76%", "about 250k",
"1T", "900B", "up to 160x", "≈ 480 x 10^9", "3.2e-3". `parse_printed` reads the first
number of such a text with its magnitude word or suffix (k, M, B, T; thousand ...
trillion) or power of ten, its qualifier (about, up to, at least, at most) and its
precision: half a unit of the last printed digit, so "56.8" is 56.75 to 56.85. A
printed_value written "A / B" (two printed numbers) holds a quotient the record computes
from them (`parse_quotient`).
`check_printed` says why a stored value contradicts its printed form, or returns None.
Both are pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MULTIPLIERS = {
    "k": 1e3,
    "K": 1e3,
    "thousand": 1e3,
    "M": 1e6,
    "million": 1e6,
    "B": 1e9,
    "billion": 1e9,
    "T": 1e12,
    "trillion": 1e12,
}
_QUALIFIERS = (
    ("about", "about"),
    ("approximately", "about"),
    ("approx.", "about"),
    ("around", "about"),
    ("roughly", "about"),
    ("~", "about"),
    ("≈", "about"),
    ("up to", "up_to"),
    ("at most", "up_to"),
    ("<=", "up_to"),
    ("≤", "up_to"),
    ("<", "up_to"),
    ("at least", "at_least"),
    (">=", "at_least"),
    ("≥", "at_least"),
    (">", "at_least"),
    ("over", "at_least"),
    ("more than", "at_least"),
)
_QUALIFIER_WORDS = tuple(word for word, _ in _QUALIFIERS)
_NUMBER = re.compile(
    r"(?<![\w.])(?P<sign>[-+−]?)(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?"
    r"(?:[eE](?P<exp>[-+]?\d+)|\s*[x×·]\s*10(?:\^|\*\*)?(?P<pow>[-+−]?\d+|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+))?"
    r"(?![\d.,]\d)"
    r"(?:\s*(?P<word>thousand|million|billion|trillion)\b|(?P<suffix>[kKMBT])(?![A-Za-z]))?"
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻−", "0123456789--")


def _power(text: str | None) -> int:
    """The exponent of a printed 'x 10^9', 'x 10⁹' or '× 10-3'."""
    return int(text.translate(_SUPERSCRIPTS)) if text else 0


ABOUT_TOLERANCE = 0.05
"""Relative slack for a value printed as approximate ("about 250k", "~1.2")."""


@dataclass(frozen=True)
class Printed:
    """The number a printed text states."""

    value: float
    precision: float
    """Half a unit of the last printed digit, times the magnitude: the value's spread."""
    qualifier: str | None
    """about, up_to or at_least, where the text says so."""
    percent: bool
    """True when the number is followed by a percent sign."""


def parse_printed(text: str) -> Printed | None:
    """The first number in `text`, or None when it holds none."""
    match = _NUMBER.search(text)
    if match is None:
        return None
    integer = match["int"].replace(",", "")
    fraction = match["frac"] or ""
    exponent = int(match["exp"] or 0) + _power(match["pow"])
    magnitude = _MULTIPLIERS.get(match["word"] or match["suffix"] or "", 1.0) * 10.0**exponent
    number = float(f"{integer}.{fraction}" if fraction else integer) * magnitude
    if match["sign"] in ("-", "−"):
        number = -number
    precision = 0.5 * 10.0 ** (-len(fraction)) * magnitude
    before = text[: match.start()].strip().lower()
    qualifier = (
        next((name for word, name in _QUALIFIERS if before.endswith(word)), None)
        if before.endswith(_QUALIFIER_WORDS)  # most texts have none: one C call says so
        else None
    )
    after = text[match.end() :].lstrip()
    return Printed(number, precision, qualifier, after.startswith("%"))


_QUOTIENT = re.compile(r"\s*(?P<a>[^/]*\d[^/]*?)\s+/\s+(?P<b>[^/]*\d[^/]*)\s*")


def parse_quotient(text: str) -> Printed | None:
    """A value the record computes from two printed numbers, written 'A / B' (two cells of
    one table row, say): A / B, its precision from both printed precisions; None when the
    text is not two numbers around ' / '."""
    match = _QUOTIENT.fullmatch(text)
    if match is None:
        return None
    a, b = parse_printed(match["a"]), parse_printed(match["b"])
    if a is None or b is None or b.value == 0:
        return None
    value = a.value / b.value
    precision = abs(value) * (a.precision / abs(a.value or 1.0) + b.precision / abs(b.value))
    return Printed(value, precision, None, False)


def check_printed(value: float, printed: str, scale: str | None = None) -> str | None:
    """Why `value` contradicts the printed text, or None when it agrees (or the text
    holds no number to check). `scale` is the result's scale: a value stored as a fraction
    (scale "fraction") whose printed form is a percentage ("56.76%", or "61.91" for an
    MCC) is compared as value x 100."""
    read = parse_quotient(printed) or parse_printed(printed)
    if read is None:
        return None
    as_percent = scale == "fraction" and (read.percent or abs(read.value) > 1)
    compared = value * 100 if as_percent else value
    slack = read.precision + 1e-9 * max(abs(read.value), 1.0)
    if read.qualifier == "about":
        slack = max(slack, ABOUT_TOLERANCE * abs(read.value))
    if abs(compared - read.value) <= slack:
        return None
    return (
        f"{value:g} contradicts printed_value {printed!r}, which reads as {read.value:g}"
        f" (within {read.precision:g}); store the value as printed, or set `scale` when the "
        "source prints it on another scale"
    )
