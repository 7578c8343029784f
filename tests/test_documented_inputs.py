"""Every documented input renders: each missing-metadata reason and each concern kind, on
a record of every kind, builds, and its page shows it in reader words outside the raw
technical metadata (issue 23, item 8).

Real case: a missing-metadata entry with `reason: conflicting` and its cited values passed
`rewire validate --strict`, then `rewire build` failed with `KeyError:
<MissingReason.conflicting>`; concerns on protocols, datasets, sources and families were
shown only in the "Technical metadata" dump. The fixture is the golden catalogue with one
reportable field of each record emptied and explained, or one concern of each kind added.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml
from htmltext import flat, text_of

from rewire_site.build import build_site
from rewire_site.models.common import ConcernKind, MissingReason
from rewire_site.render.present.fields import field_text
from rewire_site.render.present.flags import FLAG_LABELS
from rewire_site.render.present.missing import MISSING_LABELS, MISSING_LONG_LABELS
from rewire_site.validate import validate_paths

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "golden"
CITATION = {"source": "golden-source", "locator": "Table 1", "quote": "as printed"}
STATED = [
    {"value": "stated first", "citation": CITATION},
    {"value": "stated second", "citation": {**CITATION, "locator": "Table 2"}},
]

EMPTIED: dict[str, tuple[str, str]] = {
    # record -> (page folder, reportable field left empty)
    "golden-config-large": ("configurations", "version"),
    "golden-dataset": ("datasets", "version"),
    "golden-eval-large": ("evaluations", "comparison.dataset_version"),
    "golden-protocol": ("protocols", "hardware"),
    "golden-family": ("families", "architecture"),
    "golden-source": ("sources", "licence"),
}
"""One record of every kind, and a reportable field its page shows."""


def _catalogue(into: Path, change: Any) -> Path:
    shutil.copytree(GOLDEN, into)
    for record_id in EMPTIED:
        path = into / "records" / f"{record_id}.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change(record_id, data)
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return into


def _reader_text(html: str) -> str:
    """The page's visible text without the technical metadata dump."""
    return flat(text_of(html.split('<section aria-labelledby="metadata">')[0]))


def _strict_problems(root: Path) -> list[str]:
    """What `rewire validate --strict` reports (the copies' schema pointers aside)."""
    report = validate_paths([root / "records"], root, cache=False)
    return [p.message for p in report.problems if "schema" not in p.message]


def _missing(reason: MissingReason) -> dict[str, Any]:
    entry: dict[str, Any] = {"reason": reason.value, "note": f"Why: {reason.value} case."}
    if reason == MissingReason.conflicting:
        entry["values"] = STATED
    return entry


@pytest.mark.parametrize("reason", list(MissingReason))
def test_every_missing_reason_renders_on_every_record_kind(
    tmp_path: Path, reason: MissingReason
) -> None:
    def empty(record_id: str, data: dict[str, Any]) -> None:
        path = EMPTIED[record_id][1]
        head, _, name = path.rpartition(".")
        (data[head] if head else data).pop(name, None)
        data.setdefault("missing_metadata", {})[path] = _missing(reason)

    root = _catalogue(tmp_path / "catalogue", empty)
    assert not _strict_problems(root)
    build_site(root, root / "site", release_date=date(2026, 2, 10), workers=1)
    for record_id, (folder, path) in EMPTIED.items():
        html = (root / "site" / folder / record_id / "index.html").read_text(encoding="utf-8")
        shown = _reader_text(html)
        assert MISSING_LABELS[reason] in shown or MISSING_LONG_LABELS[reason] in shown, record_id
        if reason == MissingReason.conflicting:
            assert "stated first" in shown and "stated second" in shown, record_id
        everything = flat(text_of(html))
        assert f"reason: {reason.value}" not in everything, record_id
        assert path not in everything.replace(field_text(path), ""), record_id


def test_every_concern_kind_renders_on_every_record_kind(tmp_path: Path) -> None:
    def concerned(record_id: str, data: dict[str, Any]) -> None:
        data["concerns"] = [
            {
                "id": f"concern-{kind.value.replace('_', '-')}",
                "kind": kind.value,
                "text": f"Concern text of kind {kind.value.replace('_', ' ')}.",
                "field": EMPTIED[record_id][1],
                "excludes_from_comparisons": False,
                **({"values": STATED} if kind == ConcernKind.conflicting_values else {}),
            }
            for kind in ConcernKind
        ]

    root = _catalogue(tmp_path / "catalogue", concerned)
    assert not _strict_problems(root)
    build_site(root, root / "site", release_date=date(2026, 2, 10), workers=1)
    for record_id, (folder, path) in EMPTIED.items():
        html = (root / "site" / folder / record_id / "index.html").read_text(encoding="utf-8")
        shown = _reader_text(html)
        for kind in ConcernKind:
            assert f"Concern text of kind {kind.value.replace('_', ' ')}." in shown, (
                record_id,
                kind,
            )
        labels = {FLAG_LABELS.get(k.value, "Evidence concern") for k in ConcernKind}
        assert all(label in shown for label in labels), record_id
        assert "stated first (Fixture and Golden 2026, Table 1)" in shown, record_id
        everything = flat(text_of(html))
        assert path not in everything.replace(field_text(path), ""), record_id
        assert "conflicting_values" not in everything, record_id


def test_every_concern_kind_has_its_own_label() -> None:
    assert {k.value for k in ConcernKind} - {"other", "source_conflict"} <= set(FLAG_LABELS)
