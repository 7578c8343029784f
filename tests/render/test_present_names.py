"""A row's name in words (`render/present/names.row_title`) reads as the characters derive
sorts rows on (`derive/names.order_text`), so a page's row order is the order of the
names it shows."""

from __future__ import annotations

import pytest

from rewire_site.derive.names import RowName, order_text
from rewire_site.render.present.names import row_title

SETTINGS = (("precision", "bf16"), ("update", "full"))


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (RowName("NT 2.5B on 1 x H100"), "NT 2.5B on 1 x H100"),
        (RowName("NT 2.5B", SETTINGS, form="setup"), "NT 2.5B (precision bf16, update full)"),
        (RowName("NT 2.5B", (), form="setup"), "NT 2.5B ()"),
        (RowName("DNABERT-2", (("layer", "6"),), form="table"), "DNABERT-2, layer 6"),
        (RowName("DNABERT-2", (), form="table"), "DNABERT-2"),
        (RowName("NT 500M", configuration_id="config-a"), "NT 500M (config-a)"),
        (
            RowName("NT 2.5B", SETTINGS, form="setup", configuration_id="config-b"),
            "NT 2.5B (precision bf16, update full) (config-b)",
        ),
        (
            RowName("HyenaDNA", (("layer", "2"), ("pooling", "mean")), "table", "config-c"),
            "HyenaDNA, layer 2, pooling mean (config-c)",
        ),
        (
            RowName("NT 2.5B", SETTINGS, form="setup", hardware="NVIDIA H100 80GB HBM3"),
            "NT 2.5B (precision bf16, update full) (NVIDIA H100 80GB HBM3)",
        ),
    ],
)
def test_a_name_reads_as_the_text_rows_sort_on(name: RowName, words: str) -> None:
    assert row_title(name) == words
    assert order_text(name) == words


def test_titles_with_parentheses_sort_as_their_words() -> None:
    """A title's own parentheses sort character by character against a setup's settings:
    'NT (old)' reads before 'NT (precision bf16, update full)', though its label is longer."""
    names = [RowName("NT", SETTINGS, form="setup"), RowName("NT (old)")]
    assert sorted(names, key=order_text) == [names[1], names[0]]
    assert sorted(row_title(n) for n in names) == [row_title(n) for n in reversed(names)]
