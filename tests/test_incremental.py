"""Incremental preview builds (`rewire serve`, src/rewire_site/incremental/).

On a small real catalogue (a few evaluations of the browser tests' fixed list and every
record they refer to), a sequence of edits goes through the real serve machinery:
`serve.Preview` polling the records and templates folders, its `PreviewBuilder`
rebuilding the edited records' pages at once and the site-wide files in the background
once edits settle. After each edit has settled every file of the served site is
compared, byte for byte, with a fresh full `rewire build --preview` of the same records
in another folder. A dependency the tracking missed leaves a stale page, and the
comparison names it.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from entry_point import rewire_script
from scenarios import copy_closure

from rewire_site.build import build_site, gather
from rewire_site.incremental import IncrementalSite, Outcome
from rewire_site.incremental.track import (
    ANY,
    Key,
    Recorder,
    TrackedMap,
    TrackingCatalogue,
)
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation
from rewire_site.problems import RecordsInvalid
from rewire_site.release import RELEASE_ID, is_preview, preview_release
from rewire_site.render.derive_stage import plan_site
from rewire_site.serve import Preview, PreviewBuilder

REPO = Path(__file__).resolve().parents[1]
RELEASE_DATE = "2026-01-01"
TIMEOUT = 60.0

EVALUATION = "evidence-20261130-eval-dnabert-2-gue-plus-epi-0-published"
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
SOURCE = "evidence-20261130-source-nt-docs-nucleotide-transformer"
CONFIGURATION = "rewire-20261129-193100-config-gena-lm-110m-baseline-bf16-full-1000nt"
UNCITED_EVALUATION = "evidence-20261130-eval-dnabert-2-gue-tf-mouse-table-6"
CHOSEN = [
    EVALUATION,
    UNCITED_EVALUATION,
    "rewire-20261129-193100-eval-gena-lm-110m-baseline-bf16-full-1000nt",
    "rewire-20261129-193100-eval-gena-lm-110m-checkpointing-bf16-fp32-states-full-1000nt",
    "gfm-guide-20261014-family-nucleotide-transformer",
]
"""The records of the small catalogue (with every record they refer to): the edited
evaluation, configuration, protocol and source are among them."""


def make_project(root: Path) -> Path:
    """A project of the chosen records (and those they refer to), their artifacts and the
    templates."""
    copy_closure(CHOSEN, REPO / "records", root / "records")
    shutil.copytree(REPO / "templates", root / "templates")
    return root


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def differing(served: Path, reference: Path) -> list[str]:
    """Paths whose bytes differ between two sites, or that only one of them has."""
    a, b = site_files(served), site_files(reference)
    return sorted(p for p in a.keys() | b.keys() if a.get(p) != b.get(p))


def full_preview(project: Path, out: Path) -> Path:
    if out.exists():
        shutil.rmtree(out)
    build_site(project, out, release_date=RELEASE_DATE, preview=True, workers=1)
    return out


def record(project: Path, record_id: str) -> Path:
    return project / "records" / f"{record_id}.yaml"


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} has no {old!r}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@dataclass
class Served:
    project: Path
    preview: Preview
    builder: PreviewBuilder
    log: list[str]
    builds: int = 1
    failures: int = 0

    @property
    def site(self) -> Path:
        return self.project / "site"

    def rebuilt(self) -> None:
        """Wait for the rebuild the last edit causes, then for its site-wide files."""
        self.builds += 1
        assert self.preview.wait_for(self.builds, self.failures, TIMEOUT), self.log
        assert self.builder.wait_settled(TIMEOUT), self.log

    def failed(self) -> None:
        self.failures += 1
        assert self.preview.wait_for(self.builds, self.failures, TIMEOUT), self.log


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    project = make_project(tmp_path / "project")
    log: list[str] = []
    builder = PreviewBuilder(
        project, project / "records", project / "site", log.append, RELEASE_DATE, 0.05
    )
    watched = [project / "records", project / "templates"]
    preview = Preview(project / "site", watched, builder, port=0, poll=True, log=log.append)
    assert preview.build(), log
    preview.start()
    try:
        yield Served(project, preview, builder, log)
    finally:
        preview.stop()


Edit = Callable[[Path], None]


def _value(project: Path) -> None:
    path = record(project, EVALUATION)
    replace_in(path, "value: 61.91", "value: 61.97")
    replace_in(path, 'printed_value: "61.91"', 'printed_value: "61.97"')


def _protocol_title(project: Path) -> None:
    path = record(project, PROTOCOL)
    text = path.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    replace_in(path, title, "title: Training peak memory, retitled by the incremental test")


def _source_title(project: Path) -> None:
    path = record(project, SOURCE)
    text = path.read_text(encoding="utf-8")
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    replace_in(path, title, "title: Nucleotide Transformer documentation (retitled)")


def _add_evaluation(project: Path) -> None:
    text = record(project, EVALUATION).read_text(encoding="utf-8")
    new_id = EVALUATION + "-copy"
    text = text.replace(f"id: {EVALUATION}\n", f"id: {new_id}\n", 1)
    title = next(line for line in text.splitlines() if line.startswith("title:"))
    text = text.replace(title, "title: A copy of an evaluation, added by the test", 1)
    record(project, new_id).write_text(text, encoding="utf-8")


def _delete_evaluation(project: Path) -> None:
    record(project, UNCITED_EVALUATION).unlink()


def _configuration_length(project: Path) -> None:
    # the input length is a ranking condition (derive/comparability.py)
    replace_in(record(project, CONFIGURATION), "  length: 1000nt\n", "  length: 1024nt\n")


EDITS: list[tuple[str, Edit]] = [
    ("an evaluation's value", _value),
    ("a protocol's title", _protocol_title),
    ("the title of a source many records cite", _source_title),
    ("a new evaluation", _add_evaluation),
    ("a deleted evaluation", _delete_evaluation),
    ("a configuration's input length (comparability)", _configuration_length),
]


def test_every_edit_settles_to_the_bytes_of_a_full_preview_build(
    served: Served, tmp_path: Path
) -> None:
    reference = tmp_path / "reference"
    assert differing(served.site, full_preview(served.project, reference)) == []
    for name, edit in EDITS:
        edit(served.project)
        served.rebuilt()
        outcome = served.builder.last
        assert outcome is not None and not outcome.full, (name, served.log)
        assert differing(served.site, full_preview(served.project, reference)) == [], name
        if name == "an evaluation's value":
            # at once: its own page only; the pages that show it (its protocol's page
            # among them) and the site-wide files followed in the background pass
            assert list(outcome.done) == [("record", EVALUATION)], outcome.done
            assert outcome.left > 0
        if name == "a deleted evaluation":
            assert not any(UNCITED_EVALUATION in p for p in site_files(served.site))
    assert sum("site-wide files remade" in line for line in served.log) == len(EDITS)

    # an edit with an error: the problem is printed as file:line: field: message and
    # the site stays exactly as it was
    before = site_files(served.site)
    path = record(served.project, EVALUATION)
    text = path.read_text(encoding="utf-8")
    named = next(line for line in text.splitlines() if line.startswith("protocol: "))
    replace_in(path, named, "protocol: no-such-protocol")
    served.failed()
    assert site_files(served.site) == before
    shown = [line for line in served.log if f"{EVALUATION}.yaml:" in line]
    assert any(": protocol: 'no-such-protocol' refers to no record" in s for s in shown), shown
    # ... and its fix: the site follows
    replace_in(path, "protocol: no-such-protocol", named)
    served.rebuilt()
    assert differing(served.site, full_preview(served.project, reference)) == []

    # a template edit: a full preview build (logged), the same bytes as a fresh one
    replace_in(
        served.project / "templates" / "base.html",
        "Downloads and checksums</a>",
        "Downloads and checksums (edited)</a>",
    )
    served.rebuilt()
    assert served.builder.last is not None and served.builder.last.full
    assert any("templates changed" in line for line in served.log), served.log
    assert differing(served.site, full_preview(served.project, reference)) == []
    assert b"Downloads and checksums (edited)" in (served.site / "index.html").read_bytes()


def test_an_update_writes_the_edited_page_and_leaves_the_site_wide_files_to_settle(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    home, matrix = (
        project / "site" / "index.html",
        project / "site" / "downloads" / ("model-evaluation-matrix.csv.gz"),
    )
    before = (home.read_bytes(), matrix.read_bytes())
    _value(project)
    outcome = site.update([record(project, EVALUATION)])
    assert outcome.jobs > 0 and outcome.left > 0 and site.unsettled
    reference = full_preview(project, tmp_path / "ref")
    page = f"evaluations/{EVALUATION}/index.html"
    assert (project / "site" / page).read_bytes() == (reference / page).read_bytes()
    assert (home.read_bytes(), matrix.read_bytes()) == before  # not yet
    # a settle pass that an edit stops after its first job leaves the rest for the next
    calls = iter([False, True])
    stopped = site.settle(lambda: next(calls, True))
    assert stopped.jobs == 1 and stopped.left > 0 and site.unsettled
    assert site.settle().left == 0 and not site.unsettled
    assert differing(project / "site", reference) == []


def test_edits_in_quick_succession_make_one_site_wide_pass(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    log: list[str] = []
    builder = PreviewBuilder(
        project, project / "records", project / "site", log.append, RELEASE_DATE, 1.0
    )
    builder(None)
    assert builder.settled.is_set()
    _value(project)
    builder({str(record(project, EVALUATION))})
    _protocol_title(project)
    builder({str(record(project, PROTOCOL))})
    assert not builder.settled.is_set()
    assert builder.wait_settled(TIMEOUT), log
    assert sum("site-wide files remade" in line for line in log) == 1, log
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []
    builder.close()


def test_an_edit_waits_for_no_settle_pass(tmp_path: Path) -> None:
    """An edit that comes while the site-wide files are being remade stops that pass
    after its current job; the next pass makes what is left."""
    project = make_project(tmp_path / "project")
    builder = PreviewBuilder(
        project, project / "records", project / "site", print, RELEASE_DATE, 0.0
    )
    builder(None)
    settle = builder.site.settle
    started, go = threading.Event(), threading.Event()

    def slow_settle(stop: Callable[[], bool]) -> Outcome:
        def stop_later() -> bool:
            started.set()
            go.wait(TIMEOUT)
            return stop()

        return settle(stop_later)

    builder.site.settle = slow_settle  # type: ignore[method-assign,assignment]
    _value(project)
    builder({str(record(project, EVALUATION))})
    assert started.wait(TIMEOUT)
    edit = threading.Thread(target=builder, args=({str(record(project, PROTOCOL))},))
    _protocol_title(project)
    edit.start()
    while not builder._edit.is_set():
        pass
    go.set()
    edit.join(TIMEOUT)
    builder.site.settle = settle  # type: ignore[method-assign]
    assert builder.wait_settled(TIMEOUT)
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []
    builder.close()


def test_an_edit_with_errors_changes_nothing_until_it_is_fixed(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    before = site_files(project / "site")
    good, bad = record(project, PROTOCOL), record(project, EVALUATION)
    _protocol_title(project)
    replace_in(bad, "kind: evaluation", "kind: evaluatoin")
    with pytest.raises(RecordsInvalid) as raised:
        site.update([good, bad])
    assert any(p.path == bad and p.field == "kind" for p in raised.value.problems)
    assert site_files(project / "site") == before and not site.unsettled
    # the fix names only the bad file: the good edit, pending since, is applied too
    replace_in(bad, "kind: evaluatoin", "kind: evaluation")
    outcome = site.update([bad])
    assert not outcome.full
    site.settle()
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []


def test_a_retitled_protocol_changes_its_filter_label_only(tmp_path: Path) -> None:
    """A protocol title is a facet label, not a facet value: derive gives the same index
    of values, links and filter pages' members, and the labels a full derive makes; the
    changed keys name the label only, so no filter page is remade for its values."""
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    before = site.plan
    assert before is not None and site.records is not None
    _protocol_title(project)
    change = site.records.apply([record(project, PROTOCOL)])
    after, keys = site.derived.derive(site.records.catalogue, change.keys)
    assert after.facts.filters != before.facts.filters
    assert after.facts.filters.index == before.facts.filters.index
    assert after.facts.filter_hrefs == before.facts.filter_hrefs
    assert after.members == before.members
    labels = after.facts.filters.labels["protocol"]
    assert labels[PROTOCOL].startswith("Training peak memory, retitled by the incremental test")
    full = plan_site(after.catalogue, project, RELEASE_DATE, preview=True)
    assert after.facts.filters == full.facts.filters and after.coverage == full.coverage
    assert ("label:protocol", PROTOCOL) in keys
    assert not any(k[0] in ("href", "members") or str(k[0]).startswith("facet:") for k in keys)


def test_a_duplicate_id_is_refused(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    site = IncrementalSite(project, project / "records", project / "site", log=print)
    site.build()
    twin = project / "records" / "zz-twin.yaml"
    shutil.copy(record(project, EVALUATION), twin)
    with pytest.raises(RecordsInvalid) as raised:
        site.update([twin])
    messages = [p.message for p in raised.value.problems]
    assert any(f"duplicate id '{EVALUATION}'" in m for m in messages), messages


def test_tracking_views_record_what_is_read() -> None:
    recorder = Recorder()
    seen = TrackedMap({"a": 1, "b": 2}, "flags", recorder)
    recorder.start()
    assert seen.get("a") == 1 and "c" not in seen
    assert recorder.stop() == {("flags", "a"), ("flags", "c")}
    recorder.start()
    assert sorted(seen) == ["a", "b"]
    assert recorder.stop() == {("flags", ANY)}
    recorder.add(("ignored",))  # stopped: nothing is kept
    assert recorder.stop() == frozenset()


def test_the_tracking_catalogue_records_scans_and_referrers(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    catalogue: Catalogue = gather(project / "records", project).catalogue
    recorder = Recorder()
    seen = TrackingCatalogue(catalogue, recorder)

    def run(compute: Callable[[], object]) -> tuple[Any, frozenset[Key]]:
        recorder.start()
        return compute(), recorder.stop()

    (evaluations, keys) = run(lambda: seen.evaluations_of(PROTOCOL))
    assert evaluations == catalogue.evaluations_of(PROTOCOL) and evaluations
    assert ("ref", PROTOCOL) in keys
    assert {("id", e.id) for e in evaluations} <= keys
    (_, keys) = run(lambda: seen.of_kind(Evaluation))
    assert keys == {("kind", "Evaluation")}
    (_, keys) = run(lambda: seen.get(PROTOCOL, type(catalogue.by_id[PROTOCOL])))
    assert keys == {("id", PROTOCOL)}
    protocol = catalogue.by_id[PROTOCOL]
    (title, keys) = run(lambda: seen.field(PROTOCOL, "title"))
    assert (title, keys) == (protocol.title, {("field", PROTOCOL, "title")})
    assert seen.field("no-such-record", "title") is None


def test_a_measured_value_re_derives_the_page_facts_of_the_value_it_reproduces(
    tmp_path: Path,
) -> None:
    """An evaluation page's derived facts (`derive.evaluation_facts`) are re-derived
    where an edit changed them: a measurement's new value changes the reproduction its
    published value's page shows, as a full derive gives it, and names that page's facts
    among the changed keys (so the page is remade)."""
    project = tmp_path / "project"
    shutil.copytree(REPO / "tests" / "fixtures" / "reproduction", project)
    shutil.copytree(REPO / "templates", project / "templates")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    before = site.plan
    assert before is not None and site.records is not None
    path = record(project, "eval-nt-rewire")
    replace_in(path, "value: 31.0", "value: 41.0")
    change = site.records.apply([path])
    after, keys = site.derived.derive(site.records.catalogue, change.keys)
    full = plan_site(after.catalogue, project, RELEASE_DATE, preview=True)
    assert after.evaluations == full.evaluations
    published = "eval-nt-published"
    assert after.evaluations[published] != before.evaluations[published]
    assert ("evaluation", published) in keys and ("evaluation", "eval-nt-rewire") in keys


def test_an_edit_changes_the_keys_of_the_fields_it_changed_only(tmp_path: Path) -> None:
    from rewire_site.incremental.gather import changed_fields

    project = make_project(tmp_path / "project")
    protocol = gather(project / "records", project).catalogue.by_id[PROTOCOL]
    retitled = protocol.model_copy(update={"title": "Another title"})
    assert changed_fields(protocol, retitled) == {"title"}
    assert changed_fields(protocol, protocol) == set()
    assert changed_fields(None, protocol) == set(type(protocol).model_fields)
    assert changed_fields(protocol, None) == set(type(protocol).model_fields)


def test_the_chooser_reads_a_source_s_short_citation_only(tmp_path: Path) -> None:
    """The chooser's pages name a source by its short citation: a source's title edit
    does not remake them (serve's field keys)."""
    from rewire_site.models import Source

    project = make_project(tmp_path / "project")
    catalogue = gather(project / "records", project).catalogue
    plan = plan_site(catalogue, project, "2026-01-01", preview=True)
    recorder = Recorder()
    from rewire_site.incremental.track import tracked_plan

    tracked = tracked_plan(plan, recorder)
    recorder.start()
    for job in plan.jobs():
        if job[0] in ("chooser", "task", "matrix"):
            tracked.make(job)
    keys = recorder.stop()
    sources = {s.id for s in catalogue.of_kind(Source)}
    read = {k for k in keys if len(k) > 1 and k[1] in sources}
    assert read and read == {("field", k[1], "short_citation") for k in read}


def test_preview_release() -> None:
    made = preview_release(3, RELEASE_DATE)
    assert made.id == "2026-01-01-preview" and is_preview(made.id)
    assert not RELEASE_ID.match(made.id)  # never a release id the records do not have


@pytest.mark.slow
def test_rewire_build_preview_command(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    result = subprocess.run(
        [rewire_script(), "build", "--preview", "--release-date", RELEASE_DATE,
         "--root", str(project)],
        cwd=project, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "release 2026-01-01-preview" in result.stdout
    home = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert "2026-01-01-preview" in home
    assert "a preview of unreleased records, not a release" in home
    real = tmp_path / "real"
    build_site(project, real, release_date=RELEASE_DATE)
    assert "preview of unreleased records" not in (real / "index.html").read_text("utf-8")
