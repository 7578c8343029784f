"""One YAML parse path (issue 26): `load._Builder` over libyaml's events keeps the line
of every field and the hostile-input limits; the one optimisation beside it is the
native read (yaml_rs behind text screens, tests/test_load_native.py), kept because
benchmarks/bench_validate.py shows it pays. The flat event loop that sat between them
did not pay and is gone; this fails if a second libyaml reader comes back."""

from __future__ import annotations

import re
from pathlib import Path

from rewire_site import load

LOAD_SOURCE = Path(load.__file__).read_text(encoding="utf-8")


def test_libyaml_is_driven_from_one_place() -> None:
    """One call that starts libyaml's parser, inside `_Builder`."""
    starts = [m.start() for m in re.finditer(r"_Loader\(", LOAD_SOURCE)]
    assert len(starts) == 1
    inside = LOAD_SOURCE.rfind("\nclass ", 0, starts[0])
    assert LOAD_SOURCE.startswith("\nclass _Builder", inside)
    assert LOAD_SOURCE.rfind("\ndef ", 0, starts[0]) < inside


def test_records_are_parsed_by_load_alone() -> None:
    """Build, validate, serve and measure/ read record files through `load` (its lines
    and limits); elsewhere YAML is only written (importers, the synthetic catalogue,
    measure's records) or is a recipe, not a record (measure/recipe_file.py)."""
    root = Path(load.__file__).resolve().parents[2]
    parsing = re.compile(r"\byaml(?:_rs)?\.(?:safe_load|load|compose|parse|loads|CSafeLoader)\b")
    found = sorted(
        path.relative_to(root).as_posix()
        for folder in ("src", "measure")
        for path in (root / folder).rglob("*.py")
        if parsing.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["measure/recipe_file.py", "src/rewire_site/load.py"]
