"""Incremental preview builds (`rewire serve`, src/rewire_site/incremental/).

On a small real catalogue (the browser tests' fixed list, tests/browser/catalogue.txt,
and every record it refers to), a sequence of edits goes through the real serve
machinery: `serve.Preview` polling the records and templates folders, its
`PreviewBuilder` rebuilding incrementally. After each edit every file of the served
site is compared, byte for byte, with a fresh full `rewire build --preview` of the same
records in another folder. A dependency the tracking missed leaves a stale page, and
the comparison names it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from entry_point import rewire_script
from scenarios import copy_closure

from rewire_site.build import build_site
from rewire_site.derive.filters import filter_index
from rewire_site.incremental import IncrementalSite
from rewire_site.incremental.memo import Memo
from rewire_site.incremental.track import ANY, Recorder, TrackedMap, TrackingCatalogue
from rewire_site.link import Catalogue
from rewire_site.models import Evaluation
from rewire_site.problems import RecordsInvalid
from rewire_site.release import RELEASE_ID, ManifestEntry, is_preview, preview_release, sha256_bytes
from rewire_site.serve import Preview, PreviewBuilder

REPO = Path(__file__).resolve().parents[1]
CATALOGUE = REPO / "tests" / "browser" / "catalogue.txt"
RELEASE_DATE = "2026-01-01"
TIMEOUT = 60.0

EVALUATION = "evidence-20261130-eval-dnabert-2-gue-plus-epi-0-published"
PROTOCOL = "saadat-fellay-20261015-protocol-training-peak-memory"
SOURCE = "evidence-20261130-source-nt-docs-nucleotide-transformer"
CONFIGURATION = "rewire-20261129-193100-config-gena-lm-110m-baseline-bf16-full-1000nt"
UNCITED_EVALUATION = "evidence-20261130-eval-dnabert-2-gue-tf-mouse-table-6"


def listed_ids() -> list[str]:
    lines = CATALOGUE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def make_project(root: Path) -> Path:
    """A project of the fixed catalogue's records, artifacts and the templates."""
    copy_closure(listed_ids(), REPO / "records", root / "records")
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
        """Wait for the rebuild the last edit causes."""
        self.builds += 1
        assert self.preview.wait_for(self.builds, self.failures, TIMEOUT), self.log

    def failed(self) -> None:
        self.failures += 1
        assert self.preview.wait_for(self.builds, self.failures, TIMEOUT), self.log


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    project = make_project(tmp_path / "project")
    log: list[str] = []
    builder = PreviewBuilder(
        project, project / "records", project / "site", log.append, RELEASE_DATE
    )
    watched = [project / "records", project / "templates"]
    preview = Preview(project / "site", watched, builder, port=0, poll=True, log=log.append)
    assert preview.build(), log
    # every update gives part of its jobs to a forked child (parallel.py), however cheap
    builder.site.parallel_min = builder.site.fork_cost = 0.0
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


@pytest.mark.slow
def test_every_edit_gives_the_bytes_of_a_full_preview_build(served: Served, tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    assert differing(served.site, full_preview(served.project, reference)) == []

    def citations() -> object:
        """The memo piece of the citation files (read only the kind scan of sources)."""
        memo = served.builder.site.memo
        [piece] = [
            v[0] for k, v in memo.items.items() if isinstance(k, tuple) and k[0] == "citations"
        ]
        return piece

    for name, edit in EDITS:
        cited = citations()
        pieces = dict(served.builder.site.memo.items)
        edit(served.project)
        served.rebuilt()
        # kept unless a source changed (the memo dropped it, or the child made it anew)
        assert (citations() is cited) == (name != "the title of a source many records cite")
        outcome = served.builder.last
        assert outcome is not None and not outcome.full, (name, served.log)
        assert served.builder.site.forked > 0, name
        assert differing(served.site, full_preview(served.project, reference)) == [], name
        if name == "an evaluation's value":
            # its page, its protocol's pages, the home page, the data files, the release
            # table, the search index...: a handful, not the site
            assert 0 < len(outcome.written) <= 40, outcome.written
            assert outcome.jobs < 40
            # the site-wide files and the evaluation lists were joined from kept pieces:
            # only the edited evaluation's pieces (and its protocol's) were computed again
            memo = served.builder.site.memo
            assert 0 < memo.misses <= 9 < memo.hits, (memo.hits, memo.misses)
            new = [k for k, v in memo.items.items() if pieces.get(k) is not v]
            assert ("list row", EVALUATION) in new, new
        if name == "a deleted evaluation":
            assert outcome.removed >= 2  # its page and its JSON
            assert not any(UNCITED_EVALUATION in p for p in site_files(served.site))

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
    assert site_files(project / "site") == before
    # the fix names only the bad file: the good edit, pending since, is applied too
    replace_in(bad, "kind: evaluatoin", "kind: evaluation")
    outcome = site.update([bad])
    assert not outcome.full
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []


def test_a_failed_child_falls_back_to_a_full_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    site.parallel_min = site.fork_cost = 0.0
    parent = os.getpid()
    make = IncrementalSite._make

    def failing_in_child(self: IncrementalSite, *args: Any) -> Any:
        if os.getpid() != parent:
            raise OSError("injected in the forked child")
        return make(self, *args)

    monkeypatch.setattr(IncrementalSite, "_make", failing_in_child)
    _value(project)
    outcome = site.update([record(project, EVALUATION)])
    assert outcome.full and outcome.why == "after ChildFailed"
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []


def test_without_a_replica_every_dirty_job_is_made_here(tmp_path: Path) -> None:
    """A site too small for a replica, whose update costs enough to split: no job is left
    to a replica that does not exist."""
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    site.parallel_min = site.fork_cost = 1e-9  # every update would split...
    _protocol_title(project)
    outcome = site.update([record(project, PROTOCOL)])
    assert site.replica is None and site.forked == 0  # ...but there is no replica
    assert not outcome.full
    assert differing(project / "site", full_preview(project, tmp_path / "ref")) == []


def test_the_replica_writes_what_this_process_changed_since_it_was_forked(
    tmp_path: Path,
) -> None:
    """The replica writes the files of the jobs it makes, skipping those whose bytes its
    manifest already holds; `follow` brings it the entries this process changed (or
    removed), or a page this process rewrote meanwhile and the replica makes back as it
    was would be skipped and left as this process wrote it. Run in this process (the
    replica's methods, not a fork)."""
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    page = f"evaluations/{EVALUATION}/index.html"
    target = project / "site" / page
    before = target.read_bytes()
    job = next(j for j, paths in site.outputs.items() if page in paths)
    made = (job, [(page, before)], frozenset(), 0.0)
    assert site._write(made)[1] == [(page, page, site.manifest[page], False)]  # unchanged
    # this process rewrites the page (an edit), then the edit is undone and the replica
    # makes the page as it was
    rewritten = b"<p>as this process wrote it</p>"
    target.write_bytes(rewritten)
    entry = ManifestEntry(page, sha256_bytes(rewritten), len(rewritten))
    site.follow(set(), ([], {}), {page: entry}, {})
    [(_, _, written, changed)] = site._write(made)[1]
    assert changed and target.read_bytes() == before
    assert written == ManifestEntry(page, sha256_bytes(before), len(before))
    # an entry this process removed is gone from the replica's manifest too
    site.follow(set(), ([], {}), {page: None}, {})
    assert page not in site.manifest


def test_a_retitled_protocol_keeps_the_filter_index_and_relabels_it(tmp_path: Path) -> None:
    """A protocol title is a facet label, not a facet value: derive keeps the index of
    values, its links and the filter pages' members (the same objects), and makes the
    labels again, as a full derive makes them."""
    project = make_project(tmp_path / "project")
    site = IncrementalSite(
        project, project / "records", project / "site", release_date=RELEASE_DATE, log=print
    )
    site.build()
    before = site.plan
    assert before is not None
    _protocol_title(project)
    site.update([record(project, PROTOCOL)])
    after = site.plan
    assert after is not None and after.facts.filters is not before.facts.filters
    assert after.facts.filters.index is before.facts.filters.index
    assert after.facts.filter_hrefs is before.facts.filter_hrefs
    assert after.members is before.members
    labels = after.facts.filters.labels["protocol"]
    assert labels[PROTOCOL].startswith("Training peak memory, retitled by the incremental test")
    full = filter_index(after.catalogue)
    assert after.facts.filters.labels == full.labels and after.facts.filters.index == full.index


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


def test_the_memo_keeps_a_piece_until_one_of_its_keys_changes() -> None:
    recorder = Recorder()
    memo = Memo(recorder)
    flags = TrackedMap({"e1": 1, "e2": 2}, "flags", recorder)
    calls: list[str] = []

    def piece(name: str) -> int:
        calls.append(name)
        return int(flags[name]) * 10

    e1, e2 = ("piece", "e1"), ("piece", "e2")
    recorder.start()
    assert memo(e1, lambda: piece("e1")) == 10
    assert memo(e2, lambda: piece("e2")) == 20
    # the job depends on the pieces it used; each piece on the keys it read
    assert recorder.stop() == {("memo", e1), ("memo", e2)}
    assert (memo.items[e1][1], memo.items[e2][1]) == ({("flags", "e1")}, {("flags", "e2")})
    # a hit computes nothing and still names the piece among the job's keys
    recorder.start()
    assert memo(e1, lambda: piece("e1")) == 10
    assert recorder.stop() == {("memo", e1)}
    assert calls == ["e1", "e2"] and (memo.hits, memo.misses) == (1, 2)
    # an edit that changed e2's flags drops e2's piece only, and says so by its key
    assert memo.invalidate({("flags", "e2"), ("flags", ANY)}) == {("memo", e2)}
    assert memo(e1, lambda: piece("e1")) == 10
    assert memo(e2, lambda: piece("e2")) == 20
    assert calls == ["e1", "e2", "e2"]
    # a piece joined from pieces is dropped with any of them, and so are its users
    both = ("both",)
    outer = ("outer",)
    memo(outer, lambda: memo(both, lambda: memo(e1, lambda: 0) + memo(e2, lambda: 0)))
    assert memo.items[both][1] == {("memo", e1), ("memo", e2)}
    dropped = memo.invalidate({("flags", "e1")})
    assert dropped == {("memo", e1), ("memo", both), ("memo", outer)}
    assert e2 in memo.items and both not in memo.items and memo.invalidate(dropped) == set()
    # a piece that raised is not kept
    with pytest.raises(KeyError):
        memo(("piece", "e3"), lambda: piece("e3"))
    assert ("piece", "e3") not in memo.items


def test_the_tracking_catalogue_records_scans_and_referrers(tmp_path: Path) -> None:
    from rewire_site.build import gather

    project = make_project(tmp_path / "project")
    catalogue: Catalogue = gather(project / "records", project).catalogue
    recorder = Recorder()
    seen = TrackingCatalogue(catalogue, recorder)
    (evaluations, keys) = recorder.run(lambda: seen.evaluations_of(PROTOCOL))
    assert evaluations == catalogue.evaluations_of(PROTOCOL) and evaluations
    assert ("ref", PROTOCOL) in keys
    assert {("id", e.id) for e in evaluations} <= keys
    (_, keys) = recorder.run(lambda: seen.of_kind(Evaluation))
    assert keys == {("kind", "Evaluation")}
    (_, keys) = recorder.run(lambda: seen.get(PROTOCOL, type(catalogue.by_id[PROTOCOL])))
    assert keys == {("id", PROTOCOL)}
    protocol = catalogue.by_id[PROTOCOL]
    (title, keys) = recorder.run(lambda: seen.field(PROTOCOL, "title"))
    assert (title, keys) == (protocol.title, {("field", PROTOCOL, "title")})
    assert seen.field("no-such-record", "title") is None


def test_an_edit_changes_the_keys_of_the_fields_it_changed_only(tmp_path: Path) -> None:
    from rewire_site.build import gather
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
    from rewire_site.build import gather
    from rewire_site.models import Source
    from rewire_site.render.plan import plan_site

    project = make_project(tmp_path / "project")
    catalogue = gather(project / "records", project).catalogue
    plan = plan_site(catalogue, project, "2026-01-01", preview=True)
    recorder = Recorder()
    from rewire_site.incremental.track import tracked_plan

    tracked = tracked_plan(plan, recorder)
    recorder.start()
    tracked.make(("chooser",))
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
