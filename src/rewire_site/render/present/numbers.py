"""Numbers as a reader reads them: rounding for display (which never changes a stored
value: these functions only make strings), counts with their noun, a result's value or
status, byte units spelled out, and the one rule for how many digits a value shows."""

from __future__ import annotations

import math
import re

NOT_REPORTED = "Not reported"
OUT_OF_MEMORY = "Out of memory"
INCOMPLETE = "Incomplete run"
STATUS_LABELS: dict[str, str] = {"out_of_memory": OUT_OF_MEMORY, "incomplete": INCOMPLETE}
"""Result status -> what a table shows instead of a number."""

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

UNIT_TEXTS: dict[str, str] = {
    "gigabyte": "gigabyte, 10⁹ bytes",
    "megabyte": "megabyte, 10⁶ bytes",
    "gibibyte": "gibibyte, 2³⁰ bytes",
    "mebibyte": "mebibyte, 2²⁰ bytes",
}
"""Units whose size a reader must not guess: a gigabyte on this site is 10^9 bytes."""


def unit_text(unit: str) -> str:
    """'gigabyte, 10⁹ bytes' for byte units, else the unit as recorded."""
    return UNIT_TEXTS.get(unit.strip().lower(), unit)


def display_number(value: float, digits: int = 3) -> str:
    """Round for display to `digits` significant digits without dropping integer digits
    (33.88 -> "33.9", 1.18 -> "1.18", 20.0 -> "20", 1234.5 -> "1234"); from a million
    up, in powers of ten (1e12 -> "1 × 10¹²", 8213818245120 -> "8.21 × 10¹²")."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 6:
        mantissa = display_number(value / 10**magnitude, digits)
        if mantissa.lstrip("-") == "10":  # 9.999e12 rounds up
            mantissa, magnitude = mantissa.replace("10", "1"), magnitude + 1
        return f"{mantissa} × 10{str(magnitude).translate(_SUPERSCRIPT)}"
    decimals = max(0, digits - 1 - magnitude)
    text = f"{value:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    return text


def result_display(value: float | None, status: str) -> str:
    """A result as displayed: its rounded value, or its status ('Out of memory',
    'Incomplete run') when no value is claimed."""
    if value is not None:
        return display_number(value)
    return STATUS_LABELS.get(status, NOT_REPORTED)


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """'1 evaluation', '4 evaluations'."""
    word = singular if count == 1 else (plural_form or singular + "s")
    return f"{count} {word}"


# ------------------------------------------------------------------ scales and digits

SIGNIFICANT = 4
"""Digits a value shows when its source printed more than `PRINTED_DIGITS` (a CSV's
float, '0.3622498911964387') or printed none (a measurement): rounded to this many
significant figures."""
PRINTED_DIGITS = 6
"""A printed value with up to this many significant figures is shown as printed."""


def significant_figures(text: str) -> int:
    """Significant figures of a printed number ('0.3620' -> 4, '1.2e5' -> 2)."""
    digits = re.sub(r"[^0-9]", "", text.split("e")[0].split("E")[0]).lstrip("0")
    return len(digits)


def digits_shown(value: float, printed: str) -> str:
    """A printed number under `ROUNDING_RULE`: as printed up to `PRINTED_DIGITS`
    significant figures, else `value` rounded to `SIGNIFICANT` (a spreadsheet's float)."""
    if significant_figures(printed) <= PRINTED_DIGITS:
        return printed
    return display_number(value, SIGNIFICANT)


def agree_count(n: int) -> str:
    """'1 agrees', '2 agree', '0 agree'."""
    return f"{n} agrees" if n == 1 else f"{n} agree"
