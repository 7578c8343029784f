"""A task page's reasons why two overlapping results are not comparable, in words."""

from rewire_site.derive.overlaps import Unlike
from rewire_site.render.present.unlike import unlike_text


def test_a_differing_condition_names_both_values_or_not_stated() -> None:
    assert unlike_text(Unlike("split", "test", None)) == "split differs (test / not stated)"
    assert unlike_text(Unlike("metric", "mcc", "f1")) == "metric differs (mcc / f1)"


def test_a_reason_without_values_reads_as_a_phrase() -> None:
    assert unlike_text(Unlike("protocol")) == "different protocols"
    assert unlike_text(Unlike("no_value")) == "a result without a value"
