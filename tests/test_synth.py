"""synth: deterministic synthetic catalogues that validate cleanly."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rewire_site.synth import generate_catalogue, main
from rewire_site.validate import validate_paths


def digest(root: Path) -> str:
    total = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and ".rewire-cache" not in path.parts:
            total.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return total.hexdigest()


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    generate_catalogue(tmp_path / "a", 60, seed=7)
    generate_catalogue(tmp_path / "b", 60, seed=7)
    generate_catalogue(tmp_path / "c", 60, seed=8)
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
    assert digest(tmp_path / "a") != digest(tmp_path / "c")


def test_generated_catalogue_validates_without_problems(tmp_path: Path) -> None:
    count = generate_catalogue(tmp_path, 300, seed=1)
    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    assert report.problems == []
    assert report.files_checked == count
    kinds = {getattr(r, "kind") for r in report.records.values()}  # noqa: B009
    assert kinds == {
        "source",
        "protocol",
        "dataset",
        "model_family",
        "configuration",
        "evaluation",
        "question",
    }
    evaluations = [r for r in report.records.values() if getattr(r, "kind") == "evaluation"]  # noqa: B009
    assert len(evaluations) == 300
    # realistic fill: reasons, several columns, concerns, measurements with artifacts
    assert sum(bool(r.missing_metadata) for r in evaluations) > len(evaluations) // 2
    assert max(len(r.results) for r in evaluations) >= 3
    assert any(r.concerns for r in evaluations)
    assert any(r.artifacts and r.reproduces for r in evaluations)


def test_command_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    main([str(tmp_path), "--evaluations", "20", "--seed", "2"])
    assert "records under" in capsys.readouterr().out
    assert len(list((tmp_path / "records").glob("synth-eval-*.yaml"))) == 20
