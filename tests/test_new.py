"""`rewire new KIND`: skeletons carry the modeline and every required field, cannot pass
validation until an editor fills them, prompt for reportable fields, never overwrite."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from entry_point import rewire_script
from pydantic import ValidationError
from typer.testing import CliRunner

from rewire_site import completeness
from rewire_site.cli import app
from rewire_site.models import RECORD_ADAPTER, RECORD_TYPES
from rewire_site.models.evaluation import RunConditions
from rewire_site.new import REASONS, RecordExists, skeleton, write_skeleton

KINDS = sorted(RECORD_TYPES)


def _required_fields(kind: str) -> set[str]:
    return {name for name, info in RECORD_TYPES[kind].model_fields.items() if info.is_required()}


@pytest.mark.parametrize("kind", KINDS)
def test_skeleton_has_modeline_and_every_required_field(kind: str) -> None:
    sk = skeleton(kind, f"draft-{kind.replace('_', '-')}")
    first, *_ = sk.text.splitlines()
    assert first == f"# yaml-language-server: $schema=../schemas/{kind}.schema.json"
    data = yaml.safe_load(sk.text)
    assert data["id"] == f"draft-{kind.replace('_', '-')}"
    assert data["kind"] == kind
    assert _required_fields(kind) <= set(data)


@pytest.mark.parametrize("kind", KINDS)
def test_skeleton_is_rejected_until_filled(kind: str) -> None:
    """Every placeholder is null: validation names each required one."""
    sk = skeleton(kind, "draft")
    with pytest.raises(ValidationError) as info:
        RECORD_ADAPTER.validate_python(yaml.safe_load(sk.text))
    failing = {".".join(str(p) for p in err["loc"][1:]) for err in info.value.errors()}
    failing |= set(sk.todo)  # reportable placeholders: the completeness rule rejects them
    for name in _required_fields(kind) - {"id", "kind"}:
        assert any(f == name or f.startswith(name + ".") for f in failing), (name, failing)


def _fill(value: Any, kind: str) -> Any:
    """Replace every null placeholder of a source skeleton with a plausible value."""
    filled = {
        "title": "A paper",
        "summary": "What it is.",
        "source_kind": "preprint",
        "short_citation": "Doe 2026",
        "venue": "A venue",
        "version": "v1",
        "url": "https://example.org/paper",
    }
    return {k: (filled.get(k, v) if v is None else v) for k, v in value.items()}


def test_filled_skeleton_validates_and_reportable_fields_need_reasons() -> None:
    """The skeleton's structure is right: fill the required placeholders and the record
    validates, but the completeness rule still names every unanswered reportable field."""
    sk = skeleton("source", "doe-2026")
    data = _fill(yaml.safe_load(sk.text), "source")
    record = RECORD_ADAPTER.validate_python(data)
    gaps = {gap.field for gap in completeness.check(record)}
    assert gaps == set(sk.todo) - {
        "title",
        "summary",
        "source_kind",
        "short_citation",
        "venue",
        "version",
        "url",
    }
    assert {"sha256", "retrieved_at", "revision", "licence"} <= gaps


def test_answers_become_values_and_missing_metadata() -> None:
    answers = {  # field path -> answers, in the order they are asked
        "published": ["2026-02"],  # a date at the precision printed
        "revision": ["arXiv v2"],
        "licence": ["withheld", "Licence on request."],
        "retrieval_url": ["unreported", "The paper names no mirror."],
        "retrieved_at": ["unknown", ""],  # no note
        "sha256": [""],  # left for later
        "hash_scope": ["inapplicable", "No artifact is hashed yet."],
        "independence": ["The authors built the models."],  # text
    }
    questions: list[str] = []

    def ask(question: str) -> str:
        questions.append(question)
        if question.startswith("  Note for "):
            path = question.removeprefix("  Note for ").split(" ", 1)[0]
        else:
            path = question.split(":", 1)[0]
        return answers[path].pop(0) if answers.get(path) else ""

    sk = skeleton("source", "doe-2026", ask)
    data = yaml.safe_load(sk.text)
    assert data["published"] == "2026-02"
    assert data["revision"] == "arXiv v2"
    assert data["independence"] == "The authors built the models."
    assert data["missing_metadata"] == {
        "licence": {"reason": "withheld", "note": "Licence on request."},
        "retrieval_url": {"reason": "unreported", "note": "The paper names no mirror."},
        "retrieved_at": {"reason": "unknown"},
        "hash_scope": {"reason": "inapplicable", "note": "No artifact is hashed yet."},
    }
    assert data["sha256"] is None and "sha256" in sk.todo
    assert all(reason in questions[0] for reason in REASONS)
    record = RECORD_ADAPTER.validate_python(_fill(data, "source"))
    assert {gap.field for gap in completeness.check(record)} == {"sha256"}


def test_nested_reportable_paths_are_prompted() -> None:
    asked: list[str] = []

    def ask(question: str) -> str:
        asked.append(question.split(":", 1)[0])
        return ""

    skeleton("evaluation", "draft", ask)
    assert "comparison.budget" in asked
    assert "results.0.unit" in asked
    assert "training_hardware" in asked


def test_defaults_never_overwrites(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["new", "protocol", "--id", "my-protocol", "--out", str(tmp_path), "--defaults"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    path = tmp_path / "my-protocol.yaml"
    original = path.read_text(encoding="utf-8")
    assert original.startswith("# yaml-language-server: $schema=../schemas/protocol.schema.json")
    second = runner.invoke(app, args)
    assert second.exit_code == 1
    assert "already exists" in second.output
    assert path.read_text(encoding="utf-8") == original
    with pytest.raises(RecordExists):
        write_skeleton(tmp_path, skeleton("protocol", "my-protocol"))


def test_interactive_cli_prompts(tmp_path: Path) -> None:
    runner = CliRunner()
    # id, then every reportable prompt of a dataset answered with Enter except `licence`
    answers = ["my-data", "", "", "", "", "withheld", "Licence on request.", ""]
    result = runner.invoke(
        app, ["new", "dataset", "--ask", "--out", str(tmp_path)], input="\n".join(answers) + "\n"
    )
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((tmp_path / "my-data.yaml").read_text(encoding="utf-8"))
    assert data["missing_metadata"] == {
        "licence": {"reason": "withheld", "note": "Licence on request."}
    }


def test_unknown_kind_and_bad_id(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["new", "paper", "--defaults", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "unknown kind" in result.output
    result = runner.invoke(
        app, ["new", "source", "--id", "Bad_Id", "--defaults", "--out", str(tmp_path)]
    )
    assert result.exit_code == 2 and "not a slug" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", KINDS)
def test_rewire_validate_rejects_a_fresh_skeleton(kind: str, tmp_path: Path) -> None:
    """What CI runs (`rewire validate`) fails on a skeleton, naming file, line and field."""
    from rewire_site.validate import validate_paths

    sk = skeleton(kind, "draft-record")
    path = write_skeleton(tmp_path / "records", sk)
    report = validate_paths([path], tmp_path)
    assert not report.ok
    errors = [p for p in report.problems if p.severity == "error"]
    assert all(p.path.name == "draft-record.yaml" and p.line > 1 for p in errors)
    assert any(p.field == "title" for p in errors)


def test_modeline_points_at_the_schemas_from_the_output_folder(tmp_path: Path) -> None:
    from rewire_site.new import schemas_for, schemas_from

    assert schemas_from(tmp_path / "records", tmp_path) == "../schemas"
    assert schemas_from(tmp_path / "tests" / "fixtures" / "x", tmp_path) == "../../../schemas"
    project = tmp_path / "project"
    (project / "records").mkdir(parents=True)
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    assert schemas_for(project / "tests" / "fixtures" / "x" / "records") == "../../../../schemas"
    assert schemas_for(tmp_path / "elsewhere") == "../schemas"
    sk = skeleton("dataset", "d", schemas="../../../schemas")
    assert sk.text.splitlines()[0].endswith("$schema=../../../schemas/dataset.schema.json")


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "records").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "pyproject.toml").write_text("", encoding="utf-8")
    return project


def _rewire_new(
    *args: str, cwd: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`rewire new` through the installed script, standard input not a terminal."""
    return subprocess.run(
        [rewire_script(), "new", *args],
        cwd=cwd,
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_new_from_a_subfolder_writes_to_the_projects_records(tmp_path: Path) -> None:
    """Run from src/, the record lands in the project's records/, not src/records/."""
    project = _project(tmp_path)
    done = _rewire_new("dataset", "--id", "from-src", "--defaults", cwd=project / "src")
    assert done.returncode == 0, done.stderr
    assert (project / "records" / "from-src.yaml").is_file()
    assert not (project / "src" / "records").exists()
    text = (project / "records" / "from-src.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schemas/dataset.schema.json")


def test_new_without_a_terminal_asks_nothing_and_does_not_abort(tmp_path: Path) -> None:
    project = _project(tmp_path)
    done = _rewire_new("dataset", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Aborted" not in done.stdout + done.stderr
    assert "Record id" not in done.stdout  # no prompt printed to nobody
    assert "not a terminal" in done.stderr
    assert done.stdout.startswith("wrote ")
    assert (project / "records" / "new-dataset.yaml").is_file()


def test_ask_reads_piped_answers_and_stops_asking_at_their_end(tmp_path: Path) -> None:
    project = _project(tmp_path)
    done = _rewire_new("dataset", "--ask", cwd=project, stdin="piped-data\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Aborted" not in done.stdout + done.stderr
    data = yaml.safe_load((project / "records" / "piped-data.yaml").read_text(encoding="utf-8"))
    assert data["id"] == "piped-data" and data["missing_metadata"] == {}


def test_defaults_and_ask_together_are_refused(tmp_path: Path) -> None:
    done = _rewire_new("dataset", "--ask", "--defaults", cwd=_project(tmp_path))
    assert done.returncode == 2 and "give one of them" in done.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_skeleton_writes_every_field_of_its_kind(kind: str) -> None:
    """Every field of the kind is in the file, each with a comment saying what it takes:
    the editor never has to find a field in the schema."""
    sk = skeleton(kind, "draft")
    data = yaml.safe_load(sk.text)
    assert set(RECORD_TYPES[kind].model_fields) <= set(data)
    for line in sk.text.splitlines()[3:]:
        if line.strip() and not line.lstrip().startswith(("#", "- ")) and ":" in line:
            key, rest = line.split(":", 1)
            if key.strip() in RECORD_TYPES[kind].model_fields and key == key.strip():
                assert "#" in rest or key == "missing_metadata" or rest.strip() == "", line


def test_an_evaluation_skeleton_holds_what_published_evidence_needs() -> None:
    data = yaml.safe_load(skeleton("evaluation", "draft").text)
    result = data["results"][0]
    assert set(result["citation"]) >= {"source", "locator", "quote", "quoted_from", "supports"}
    assert "direction" in result and "scale" in result and "printed_value" in result
    assert set(data["run_conditions"]) == set(RunConditions.model_fields)
    assert data["reproduces"] is None and data["claims"] == [] and data["concerns"] == []
    assert set(data["citations"][0]) >= {"source", "locator", "quote", "role", "supports"}
    text = skeleton("evaluation", "draft").text
    assert "#     statement:  # required: The claim verbatim as printed." in text
    assert "#     excludes_from_comparisons:  # required:" in text


def test_a_source_skeleton_holds_kind_revision_and_licence() -> None:
    sk = skeleton("source", "draft")
    data = yaml.safe_load(sk.text)
    for name in ("source_kind", "revision", "licence", "repository", "path", "maintainers"):
        assert name in data, name
    assert "one of journal_paper, conference_paper, preprint" in sk.text
    assert data["citations"] == []  # a source is what others cite


@pytest.mark.parametrize("kind", KINDS)
def test_a_fresh_skeleton_reads_required_field_still_to_fill(kind: str, tmp_path: Path) -> None:
    """Each placeholder is named once, as a field still to fill, never as a type error."""
    from rewire_site.record_checks import PLACEHOLDER
    from rewire_site.validate import validate_paths

    path = write_skeleton(tmp_path / "records", skeleton(kind, "draft-record"))
    report = validate_paths([path], tmp_path, cache=False)
    fields = [p.field for p in report.errors]
    assert len(fields) == len(set(fields))
    for problem in report.errors:
        assert problem.message == PLACEHOLDER or problem.message.startswith(
            "no value and no reason"
        ), problem


def test_a_conflicting_answer_writes_two_values_to_fill() -> None:
    answers = iter(["conflicting", "The paper says 28, the README 36."])

    def ask(question: str) -> str:
        return next(answers, "") if question.startswith(("licence", "  Note")) else ""

    sk = skeleton("dataset", "d", ask)
    missing = yaml.safe_load(sk.text)["missing_metadata"]
    assert len(missing) == 1
    (entry,) = missing.values()
    assert entry["reason"] == "conflicting" and len(entry["values"]) == 2
    assert set(entry["values"][0]["citation"]) == {"source", "locator", "quote"}
