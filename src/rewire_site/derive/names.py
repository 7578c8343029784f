"""A table or board row's name as parts (issue 26): the recorded title or label, the
settings that tell the row apart, and the configuration id where two rows would read
the same. `render/present/names.row_title` puts a name in words; derive orders rows by
`order_text`, the same characters, so that a page's row order (and a leaderboard answer
that points at rows by position) stays the order of the names as read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NameForm = Literal["title", "setup", "table"]
"""How the settings follow the label: 'title' (none), 'setup' (a comparison's setup row:
in parentheses, 'NT 2.5B (precision bf16, update full)'), 'table' (a result table's row:
after commas, 'DNABERT-2, layer 6')."""


@dataclass(frozen=True, slots=True)
class RowName:
    """A row's name: `label` (a configuration's recorded title, a setup's reported name or
    a result table's model label) and the `settings` that tell the row apart."""

    label: str
    settings: tuple[tuple[str, str], ...] = ()
    """(setting name, value) pairs, in order."""
    form: NameForm = "title"
    configuration_id: str | None = None
    """Set where another row of the table would read the same (`tables.distinct_titles`)."""
    hardware: str | None = None
    """The card a setup row's measurements ran on, set where one setup was measured on
    more than one (`tables.comparison`: a row for each card)."""


def order_text(name: RowName) -> str:
    """The ordering key of a row name: the characters its words read as (rows sort on
    them). Titles hold parentheses and spaces of their own, so no tuple of the parts sorts
    as the words do; `render/present/names.row_title` words a name, and a test holds the
    two equal."""
    text = name.label
    if name.form == "setup":
        text += " (" + ", ".join(k + " " + v for k, v in name.settings) + ")"
    elif name.form == "table":
        text += "".join(", " + k + " " + v for k, v in name.settings)
    if name.hardware is not None:
        text += " (" + name.hardware + ")"
    if name.configuration_id is not None:
        text += " (" + name.configuration_id + ")"
    return text
