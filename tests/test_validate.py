"""validate: every problem in one run, references across files."""

from __future__ import annotations

import copy
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rewire_site.models import Evaluation
from rewire_site.validate import render, validate_paths

FIXTURE = Path(__file__).parent / "fixtures" / "minimal"


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    """A copy of the minimal fixture catalogue, with schemas for the modelines."""
    shutil.copytree(FIXTURE / "records", tmp_path / "records")
    shutil.copytree(FIXTURE / "artifacts", tmp_path / "artifacts")
    for path in (tmp_path / "records").glob("*.yaml"):
        text = path.read_text(encoding="utf-8").replace("../../../../schemas/", "../schemas/")
        path.write_text(text, encoding="utf-8")
    shutil.copytree(Path(__file__).parent.parent / "schemas", tmp_path / "schemas")
    return tmp_path


def edit(root: Path, record_id: str, old: str, new: str) -> None:
    path = root / "records" / f"{record_id}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def triples(root: Path, **kwargs: object) -> set[tuple[str, int, str]]:
    report = validate_paths([root / "records"], root, **kwargs)  # type: ignore[arg-type]
    return {(p.path.name, p.line, p.field) for p in report.errors}


def test_fixture_is_clean_and_report_holds_records_files_lines(catalogue: Path) -> None:
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.problems == []
    assert report.ok
    assert report.files_checked == 10
    assert isinstance(report.records["fx-eval"], Evaluation)
    assert report.files["fx-eval"] == catalogue / "records" / "fx-eval.yaml"
    assert report.line("fx-eval", "results.0.unit") == 23
    assert report.summary() == "10 files checked: no problems"


def test_every_problem_is_reported_in_one_run(catalogue: Path) -> None:
    edit(catalogue, "fx-eval", "unit: gigabyte", "unit: megabyte")
    edit(catalogue, "fx-config", "family: fx-family", "family: fx-nothing")
    edit(catalogue, "fx-source", "venue: Fixture Workshop 2026", "venue: [a]")
    edit(catalogue, "fx-dataset", "seed: 42", "seed: 42\nseed: 43")
    assert triples(catalogue) == {
        ("fx-eval.yaml", 23, "results.0.unit"),
        ("fx-config.yaml", 7, "family"),
        ("fx-source.yaml", 8, "venue"),
        ("fx-dataset.yaml", 11, "seed"),
        # fx-source failed its schema: what cites it is not reported again
    }


def test_a_schema_error_does_not_hide_the_files_other_problems(catalogue: Path) -> None:
    """A file that fails its model is still checked from its valid parts: references,
    results against the protocol, and the missing-metadata rule."""
    edit(catalogue, "fx-eval", "version: As retrieved 2026-02-01", "version: [oops]")
    edit(catalogue, "fx-eval", "protocol: fx-protocol", "protocol: fx-nothing")
    edit(
        catalogue,
        "fx-eval",
        "  - source: fx-source\n    locator: Section 3",
        "  - source: fx-gone\n    locator: Section 3",
    )
    edit(catalogue, "fx-eval", "  comparison.metric_implementation: {reason: unreported}\n", "")
    report = validate_paths([catalogue / "records"], catalogue)
    assert {(p.line, p.field) for p in report.errors if p.path.stem == "fx-eval"} == {
        (10, "version"),  # the schema error
        (7, "protocol"),  # a dangling reference
        (34, "citations.0.source"),  # another
        (19, "comparison.metric_implementation"),  # no value and no reason
    }
    messages = {p.field: p.message for p in report.errors}
    assert messages["protocol"].startswith("'fx-nothing' refers to no record")


def test_a_schema_error_does_not_hide_a_result_that_contradicts_its_protocol(
    catalogue: Path,
) -> None:
    edit(catalogue, "fx-eval", "origin: independent_paper", "origin: hearsay")
    edit(catalogue, "fx-eval", "unit: gigabyte", "unit: megabyte")
    assert {
        (p.line, p.field) for p in validate_paths([catalogue / "records"], catalogue).errors
    } == {
        (9, "origin"),
        (23, "results.0.unit"),
    }


def test_a_field_the_model_rejected_is_not_reported_twice(catalogue: Path) -> None:
    """`results.0.column` fails its slug pattern: no 'protocol has no column' besides."""
    edit(catalogue, "fx-eval", "column: baseline", "column: Not_A_Slug")
    edit(catalogue, "fx-eval", "configuration: fx-config", "configuration: [fx-config]")
    errors = validate_paths([catalogue / "records"], catalogue).errors
    assert [(p.line, p.field) for p in errors] == [(6, "configuration"), (21, "results.0.column")]


def test_what_a_broken_file_refers_to_is_still_referred_to(catalogue: Path) -> None:
    """fx-config fails its model, but it still names fx-family: no 'nothing refers to'."""
    edit(catalogue, "fx-config", "fine_tuning: Full update", "fine_tuning: [Full update]")
    report = validate_paths([catalogue / "records"], catalogue)
    assert [(p.path.stem, p.field) for p in report.errors] == [("fx-config", "fine_tuning")]
    assert report.warnings == []


def test_a_syntax_error_is_reported_once_not_by_every_record_that_refers_to_it(
    catalogue: Path,
) -> None:
    """issue 12: one YAML syntax error in a configuration used to give an error in each
    evaluation that names it, and a warning for its model family."""
    edit(catalogue, "fx-config", "fine_tuning: Full update", "fine_tuning: Full: update")
    report = validate_paths([catalogue / "records"], catalogue)
    assert [(p.path.stem, p.line, p.field) for p in report.problems] == [("fx-config", 10, "")]
    assert "quote a value that holds a colon" in report.problems[0].message
    assert report.unchecked == {"fx-config": 3}
    text = render(report, "text", cwd=catalogue)
    assert (
        "note: 3 reference(s) to 'fx-config' not checked: records/fx-config.yaml cannot be read"
        in text
    )
    assert "'nothing refers to this' warnings not given" in text
    assert text.splitlines()[-1] == "10 files checked: 1 error(s), 0 warning(s)"


def test_a_syntax_error_outside_the_files_validated_is_named(catalogue: Path) -> None:
    edit(catalogue, "fx-config", "fine_tuning: Full update", "fine_tuning: Full: update")
    report = validate_paths([catalogue / "records" / "fx-eval.yaml"], catalogue)
    assert [(p.path.stem, p.field) for p in report.errors] == [("fx-eval", "configuration")]
    assert "fx-config.yaml, which has errors (validate that file)" in report.errors[0].message


def test_a_subset_resolves_references_against_the_records_folder(catalogue: Path) -> None:
    report = validate_paths([catalogue / "records" / "fx-eval.yaml"], catalogue)
    assert report.problems == []
    assert list(report.records) == ["fx-eval"]


def test_a_subset_names_a_referenced_file_that_has_errors(catalogue: Path) -> None:
    edit(catalogue, "fx-config", "family: fx-family", "family: [fx-family]")
    report = validate_paths([catalogue / "records" / "fx-eval.yaml"], catalogue)
    assert [(p.path.name, p.line, p.field) for p in report.errors] == [
        ("fx-eval.yaml", 6, "configuration")
    ]
    assert "fx-config.yaml, which has errors" in report.errors[0].message


def test_a_reference_to_an_invalid_record_of_another_kind_is_reported(catalogue: Path) -> None:
    edit(catalogue, "fx-dataset", "seed: 42", "seed: [42]")
    edit(catalogue, "fx-eval", "configuration: fx-config", "configuration: fx-dataset")
    assert triples(catalogue) == {
        ("fx-dataset.yaml", 10, "seed"),
        ("fx-eval.yaml", 6, "configuration"),
    }


def test_unreferenced_records_are_warnings_entry_points_are_not(catalogue: Path) -> None:
    (catalogue / "records" / "fx-question.yaml").unlink()
    edit(catalogue, "fx-measurement", "reproduces: fx-eval\n", "")
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.ok
    assert report.errors == []
    assert report.warnings == []  # evaluations and protocols are entry points
    (catalogue / "records" / "fx-eval-runtime.yaml").unlink()
    (catalogue / "records" / "fx-eval.yaml").unlink()
    (catalogue / "records" / "fx-measurement.yaml").unlink()
    (catalogue / "artifacts" / "fx-measurement-log.json").unlink()  # else an orphan
    report = validate_paths([catalogue / "records"], catalogue)
    assert {(p.path.stem, p.field) for p in report.warnings} == {("fx-config", "id")}
    assert "nothing refers to this configuration" in report.warnings[0].message


def test_dataset_outside_the_protocol_is_a_warning(catalogue: Path) -> None:
    edit(catalogue, "fx-protocol", "datasets: [fx-dataset]", "datasets: []")
    edit(catalogue, "fx-protocol-runtime", "datasets: [fx-dataset]", "datasets: [fx-other]")
    report = validate_paths([catalogue / "records"], catalogue)
    assert {(p.path.stem, p.field) for p in report.errors} == {
        ("fx-protocol-runtime", "datasets.0")
    }
    assert {(p.path.stem, p.field, p.severity) for p in report.warnings} == {
        ("fx-eval-runtime", "dataset", "warning")
    }


def test_artifact_size_is_checked(catalogue: Path) -> None:
    edit(catalogue, "fx-measurement", "size_bytes: 25", "size_bytes: 26")
    assert triples(catalogue) == {("fx-measurement.yaml", 31, "artifacts.0.size_bytes")}


def test_extrapolation_confirmation_must_name_an_evaluation(catalogue: Path) -> None:
    edit(
        catalogue,
        "fx-measurement",
        "    coverage: {scored: 1, eligible: 1}\n",
        "    coverage: {scored: 1, eligible: 1}\n"
        "    extrapolation: {measured_steps: 10, target_steps: 100, confirmed_by: fx-config}\n",
    )
    assert triples(catalogue) == {
        ("fx-measurement.yaml", 27, "results.0.extrapolation.confirmed_by")
    }


def test_modeline_must_link_the_kind_schema(catalogue: Path) -> None:
    edit(catalogue, "fx-eval", "schemas/evaluation.schema.json", "schemas/protocol.schema.json")
    edit(catalogue, "fx-config", "# yaml-language-server: $schema=../schemas/", "# ")
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.ok
    assert {(p.path.stem, p.line) for p in report.warnings} == {("fx-eval", 1), ("fx-config", 1)}


@pytest.mark.parametrize("cache", [False, True])
def test_cache_and_processes_change_nothing(catalogue: Path, cache: bool) -> None:
    edit(catalogue, "fx-eval", "unit: gigabyte", "unit: megabyte")
    expected = triples(catalogue, cache=False, jobs=1)
    assert triples(catalogue, cache=cache, jobs=2) == expected
    assert triples(catalogue, cache=cache, jobs=2) == expected  # second run: from the cache


def test_parallel_parsing_matches_serial(tmp_path: Path) -> None:
    from rewire_site.parse_cache import PARALLEL_MIN_FILES
    from rewire_site.synth import generate_catalogue

    generate_catalogue(tmp_path, PARALLEL_MIN_FILES, seed=3)
    serial = validate_paths([tmp_path / "records"], tmp_path, cache=False, jobs=1)
    parallel = validate_paths([tmp_path / "records"], tmp_path, cache=False, jobs=2)
    assert serial.files_checked >= PARALLEL_MIN_FILES
    assert parallel.problems == serial.problems == []
    assert parallel.records == serial.records
    assert parallel.lines == serial.lines


def test_render_text_and_json(catalogue: Path) -> None:
    edit(catalogue, "fx-eval", "unit: gigabyte", "unit: megabyte")
    report = validate_paths([catalogue / "records"], catalogue)
    text = render(report, "text", cwd=catalogue)
    assert text.splitlines()[0].startswith("records/fx-eval.yaml:23: results.0.unit: unit ")
    assert text.splitlines()[-1] == "10 files checked: 1 error(s), 0 warning(s)"
    assert '"field": "results.0.unit"' in render(report, "json", cwd=catalogue)


@pytest.mark.parametrize("path", ["artifacts/\\0log.json", "/etc/passwd", "../outside.json"])
def test_artifact_paths_outside_root_or_invalid_are_errors(catalogue: Path, path: str) -> None:
    edit(
        catalogue,
        "fx-measurement",
        "path: artifacts/fx-measurement-log.json",
        f'path: "{path}"',
    )
    report = validate_paths([catalogue / "records"], catalogue)
    assert [(p.field, p.line) for p in report.errors] == [("artifacts.0.path", 28)]
    assert "not a path inside the repository" in report.errors[0].message


FUZZ_BASE = (FIXTURE / "records" / "fx-measurement.yaml").read_bytes()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cuts=st.lists(
        st.tuples(
            st.integers(0, len(FUZZ_BASE)),
            st.integers(0, 40),
            st.sampled_from(
                [b"", b":", b"- ", b"\t", b"&a ", b"*a", b"!!", b"\n  ", b"\xff", b"["]
            ),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_mutated_records_never_raise(cuts: list[tuple[int, int, bytes]]) -> None:
    """Whatever the bytes, validation reports problems; it never raises."""
    data = FUZZ_BASE
    for start, length, insert in cuts:
        data = data[:start] + insert + data[start + length :]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "records").mkdir()
        (root / "records" / "fx-measurement.yaml").write_bytes(data)
        report = validate_paths([root / "records"], root, cache=False)
        assert all(p.line >= 1 for p in report.problems)
        render(report, "text")
        render(report, "json")


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*prefix, i))
    return found


FUZZ_RECORDS = {
    name: yaml.safe_load((FIXTURE / "records" / f"{name}.yaml").read_text(encoding="utf-8"))
    for name in ("fx-measurement", "fx-eval", "fx-protocol", "fx-source", "fx-config")
}
ODD_VALUES = st.sampled_from(
    [None, 0, -1, 2.5, True, "", "x", "Not_A_Slug", "fx-eval", [], [None], {}, {"a": 1}]
)


@settings(
    max_examples=int(os.environ.get("REWIRE_FUZZ_EXAMPLES", "50")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_records_with_wrong_values_anywhere_never_raise(data: st.DataObject) -> None:
    """A file that fails its model is checked from its valid parts: whatever value sits
    at whatever field, validation reports problems and never raises."""
    name = data.draw(st.sampled_from(sorted(FUZZ_RECORDS)))
    record = copy.deepcopy(FUZZ_RECORDS[name])
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(record)
        path = data.draw(st.sampled_from(paths))
        parent = record
        for part in path[:-1]:
            parent = parent[part]  # type: ignore[index]
        parent[path[-1]] = copy.deepcopy(data.draw(ODD_VALUES))  # type: ignore[index]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        shutil.copytree(FIXTURE / "records", root / "records")
        shutil.copytree(FIXTURE / "artifacts", root / "artifacts")
        (root / "records" / f"{name}.yaml").write_text(yaml.safe_dump(record), encoding="utf-8")
        report = validate_paths([root / "records"], root, cache=False)
        assert all(p.line >= 1 for p in report.problems)
        render(report, "text")


def test_an_artifact_no_record_cites_is_a_warning(catalogue: Path) -> None:
    (catalogue / "artifacts" / "stray.log").write_text("left behind\n", encoding="utf-8")
    imported = catalogue / "artifacts" / "sources" / "some-importer"
    (imported / "files").mkdir(parents=True)
    (imported / "files" / "table.csv").write_text("a,b\n", encoding="utf-8")
    (imported / "manifest.json").write_text(
        '{"files": {"table.csv": {"sha256": "x", "size": 4}}}', encoding="utf-8"
    )
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.ok
    assert [(p.path.relative_to(catalogue).as_posix(), p.line) for p in report.warnings] == [
        ("artifacts/stray.log", 1)
    ]
    assert "no record cites this file" in report.warnings[0].message
    edit(catalogue, "fx-config", "fine_tuning: Full update", "fine_tuning: [Full update]")
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.warnings == [] and report.orphans_unknown  # a broken record may cite it
    assert any("artifacts no record cites not looked for" in n for n in report.notes())


@pytest.mark.parametrize(
    ("edits", "field", "fragment"),
    [
        ({"revision: v1": "revision: d87d29f"}, "revision", "abbreviated commit: give all 40"),
        ({"revision: v1": "revision: main"}, "revision", "'main' is not a commit"),
        (
            {"url: https://example.org/fixture": "url: https://github.com/o/r/blob/main/README.md"},
            "url",
            "names the branch 'main', which moves",
        ),
    ],
)
def test_a_repository_file_not_pinned_to_a_full_commit_is_a_warning(
    catalogue: Path, edits: dict[str, str], field: str, fragment: str
) -> None:
    edit(catalogue, "fx-source", "source_kind: preprint", "source_kind: repository_file")
    edit(catalogue, "fx-source", "revision: v1", "revision: " + "a" * 40)
    for old, new in edits.items():
        edit(catalogue, "fx-source", old.replace("revision: v1", "revision: " + "a" * 40), new)
    report = validate_paths([catalogue / "records"], catalogue)
    assert report.ok
    assert [(p.path.stem, p.field) for p in report.warnings] == [("fx-source", field)]
    assert fragment in report.warnings[0].message
    assert "git rev-parse" in report.warnings[0].message


def test_the_whole_records_folder_needs_no_context_and_a_part_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Validating records/ (or a folder above it) covers every record file, so the
    folder is not walked again for records to resolve references against; validating
    one file still resolves its references against the rest."""
    from rewire_site import link_checks
    from rewire_site.synth import generate_catalogue

    generate_catalogue(tmp_path, 4, seed=2)
    walked: list[Path] = []
    original = link_checks.yaml_names

    def counting(folder: Path, inside: str | None = None) -> list[str]:
        walked.append(folder)
        return original(folder, inside)

    monkeypatch.setattr(link_checks, "yaml_names", counting)
    for folder in (tmp_path / "records", tmp_path):
        report = validate_paths([folder], tmp_path, cache=False)
        assert report.ok and report.files_checked > 4, report.problems
    assert walked == []
    one = sorted((tmp_path / "records").glob("synth-eval-*.yaml"))[0]
    report = validate_paths([one], tmp_path, cache=False)
    assert report.ok and report.files_checked == 1, report.problems
    assert walked == [tmp_path / "records"]


def test_a_duplicate_id_keeps_the_first_file_and_checks_its_references(tmp_path: Path) -> None:
    """References are found with the per-file checks; for two files of one id, the
    first (by path) is the record, and its references are the ones checked."""
    root = tmp_path / "root"
    shutil.copytree(Path(__file__).parent / "fixtures" / "minimal", root)
    text = (root / "records" / "fx-config.yaml").read_text(encoding="utf-8")
    (root / "records" / "fx-config.yaml").unlink()
    for folder, family in (("a", "no-such-family"), ("b", "fx-family")):
        (root / "records" / folder).mkdir()
        changed = text.replace("family: fx-family", f"family: {family}")
        changed = changed.replace("$schema=../schemas/", "$schema=../../schemas/")
        (root / "records" / folder / "fx-config.yaml").write_text(changed, encoding="utf-8")
    report = validate_paths([root / "records"], root, cache=False)
    found = sorted((p.path.parent.name, p.field, p.message) for p in report.errors)
    assert found == [
        ("a", "family", "'no-such-family' refers to no record (expected the id of a model family)"),
        (
            "b",
            "id",
            f"duplicate id 'fx-config': also the id in {root / 'records' / 'a' / 'fx-config.yaml'}",
        ),
    ]
