"""A row's name in words (issue 26): a configuration's title, a setup's reported name with
the settings that set it apart ('NT 2.5B (precision bf16, update full)'), a result table's
model label with its settings ('DNABERT-2, layer 6'), and the configuration id where two
rows would otherwise read the same; the card a setup row ran on where one setup was
measured on two cards ("NT 2.5B (precision bf16) (NVIDIA H100 80GB HBM3)")."""

from __future__ import annotations

from ...derive.names import RowName


def row_title(name: RowName) -> str:
    """The words of a row name (`derive.names.RowName`)."""
    if name.form == "setup":
        settings = ", ".join(f"{k} {v}" for k, v in name.settings)
        words = f"{name.label} ({settings})"
    elif name.form == "table":
        words = name.label + "".join(f", {k} {v}" for k, v in name.settings)
    else:
        words = name.label
    if name.hardware is not None:
        words += f" ({name.hardware})"
    return words if name.configuration_id is None else f"{words} ({name.configuration_id})"
