"""`build_site` and `rewire build`: stages in order, every page, same bytes twice, atomic
on failure, problems reported as `path:line: field: message` without a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from rewire_site import build as build_module
from rewire_site.build import STAGES, build_site, gather
from rewire_site.models import Protocol
from rewire_site.problems import RecordsInvalid
from rewire_site.render import index
from rewire_site.render.urls import KIND_DIRS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DAY = date(2026, 10, 22)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the `minimal` scenario (every kind, a measurement with its artifact)."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "minimal", root)
    return root


def _edit(root: Path, record_id: str, old: str, new: str) -> None:
    path = root / "records" / f"{record_id}.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text, (record_id, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_gather_loads_and_links_the_records(project: Path) -> None:
    gathered = gather(project / "records", project)
    assert all(p.severity == "warning" for p in gathered.warnings)  # modelines: copied away
    linked = gathered.catalogue
    assert [e.id for e in linked.evaluations_of("fx-protocol")] == ["fx-eval", "fx-measurement"]
    assert isinstance(linked.get("fx-protocol", Protocol), Protocol)
    assert "fx-protocol.yaml" in {path.name for path in gathered.state}


def test_gather_raises_with_every_problem(project: Path) -> None:
    _edit(project, "fx-eval", "unit: gigabyte", "unit: megabyte")
    _edit(project, "fx-config", "family: fx-family", "family: fx-nothing")
    with pytest.raises(RecordsInvalid) as raised:
        gather(project / "records", project)
    assert len([p for p in raised.value.problems if p.severity == "error"]) == 2


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def test_build_writes_every_page_and_names_the_stages(project: Path) -> None:
    report = build_site(project, project / "site", release_date=DAY)
    assert [name for name, _ in report.stages] == list(STAGES)
    assert report.release_id.startswith("2026-10-22-")
    site = project / "site"
    for path in sorted((project / "records").glob("*.yaml")):
        record_id = path.stem
        pages = [site / folder / record_id / "index.html" for folder in KIND_DIRS.values()]
        assert sum(p.is_file() for p in pages) == 1, record_id
    for name in ("index.html", "search/index.html", "search/index.json", "downloads/index.html",
                 "static/rewire.css", "static/rewire.js", "static/print.css",
                 "downloads/release.csv.gz"):  # fmt: skip
        assert (site / name).is_file(), name
    html_pages = list(site.rglob("*.html"))
    assert report.pages == len(html_pages)
    assert report.files == len([p for p in site.rglob("*") if p.is_file()])
    assert any("pages/s" in line for line in report.lines())


def test_a_rebuild_removes_the_previous_site_after_the_swap(project: Path) -> None:
    site = project / "site"
    build_site(project, site, release_date=DAY)
    report = build_site(project, site, release_date=date(2030, 1, 1), wait=False)
    assert report.removal.path is not None  # renamed aside, removed in the background
    assert report.release_id.startswith("2030-01-01-")  # the new site is live already
    assert (site / "index.html").is_file()
    assert report.removal.wait() >= 0.0
    assert [p.name for p in project.iterdir() if p.name.startswith(".site")] == []


def test_same_records_give_the_same_bytes(project: Path, tmp_path: Path) -> None:
    build_site(project, tmp_path / "a", release_date=DAY)
    build_site(project, tmp_path / "b", release_date=DAY)
    first, second = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []


def test_parallel_rendering_gives_the_same_bytes(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_module, "PARALLEL_MIN_JOBS", 0)
    build_site(project, tmp_path / "one", release_date=DAY, workers=1)
    report = build_site(project, tmp_path / "two", release_date=DAY, workers=2)
    assert report.render.workers == 2
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_invalid_records_leave_the_site_untouched(project: Path) -> None:
    site = project / "site"
    build_site(project, site, release_date=DAY)
    before = _files(site)
    record = project / "records" / "fx-protocol.yaml"
    record.write_text(record.read_text().replace("kind: protocol", "kind: protocol\nbogus: 1"))
    with pytest.raises(RecordsInvalid) as caught:
        build_site(project, site, release_date=date(2030, 1, 1))
    assert any(p.field == "bogus" for p in caught.value.problems)
    assert _files(site) == before
    assert [p.name for p in project.iterdir() if p.name.startswith(".site")] == []


def test_a_failure_while_rendering_leaves_the_site_untouched(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = project / "site"
    build_site(project, site, release_date=DAY)
    before = _files(site)

    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("template exploded")

    monkeypatch.setattr(index, "findings_page", broken)
    with pytest.raises(RuntimeError, match="template exploded"):
        build_site(project, site, release_date=date(2030, 1, 1))
    assert _files(site) == before


def _rewire(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from rewire_site.cli import main; main()", *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


def test_cli_build_prints_stage_timings(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = _rewire("build", "--records", str(project / "records"), "--out", str(out),
                   "--release-date", "2026-10-22", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    for stage in STAGES:
        assert stage in done.stdout
    assert "pages/s" in done.stdout
    assert (out / "index.html").is_file()


def test_cli_build_reports_problems_as_path_line_field_message(project: Path) -> None:
    record = project / "records" / "fx-protocol.yaml"
    record.write_text(record.read_text().replace("kind: protocol", "kind: protocol\nbogus: 1"))
    done = _rewire("build", "--release-date", "2026-10-22", "--root", str(project), cwd=project)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "fx-protocol.yaml:" in line]
    assert any(": bogus: unknown field" in line for line in lines)
    assert not (project / "site").exists()


def test_cli_build_rejects_a_bad_release_date(project: Path) -> None:
    done = _rewire("build", "--release-date", "2026-13-40", "--root", str(project), cwd=project)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "--release-date" in done.stderr


def test_cli_build_never_replaces_a_folder_of_someone_elses_files(
    project: Path, tmp_path: Path
) -> None:
    """`--out ~/Desktop` by mistake: the folder's files stay, the error names them."""
    desktop = tmp_path / "Desktop"
    (desktop / "Documents").mkdir(parents=True)
    (desktop / "precious.txt").write_text("keep me")
    (desktop / "Documents" / "thesis.txt").write_text("four years")
    done = _rewire("build", "--root", str(project), "--out", str(desktop), cwd=project)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert str(desktop) in done.stderr
    assert "Documents/, precious.txt" in done.stderr
    assert "Nothing was changed" in done.stderr
    assert (desktop / "precious.txt").read_text() == "keep me"
    assert (desktop / "Documents" / "thesis.txt").read_text() == "four years"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Desktop", "project"]


def test_a_site_it_built_is_replaced_and_marked(project: Path) -> None:
    site = project / "site"
    build_site(project, site, release_date=DAY)
    assert (site / ".rewire-site").is_file()
    build_site(project, site, release_date=date(2030, 1, 1))
    assert (site / ".rewire-site").is_file()


def test_a_record_changed_during_the_build_fails_it_and_keeps_the_site(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor saves a record while the build renders: the build must not publish a
    site built from the bytes it read before (nor a mix); it fails clearly and the next
    build shows the new content."""
    site = project / "site"
    build_site(project, site, release_date=DAY)
    before = _files(site)
    record = project / "records" / "fx-protocol.yaml"
    text = record.read_text()
    real_render = build_module.render_jobs

    def render_while_saving(*args: object, **kwargs: object) -> object:
        record.write_text(text.replace("title: ", "title: Edited ", 1))  # a save mid-build
        return real_render(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "render_jobs", render_while_saving)
    with pytest.raises(build_module.RecordsChanged, match=r"fx-protocol\.yaml"):
        build_site(project, site, release_date=DAY)
    assert _files(site) == before
    monkeypatch.setattr(build_module, "render_jobs", real_render)
    build_site(project, site, release_date=DAY)
    assert "Edited " in (site / "protocols" / "fx-protocol" / "index.html").read_text()


def test_protocol_tables_and_chooser_pages_are_computed_once_per_build(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The derive stage computes each protocol's comparison tables, headline and
    reproduction groups once for the protocol pages, the home page, the evaluation matrix
    CSV and api/derived.json; the chooser pages are built once (the sitemap takes their
    paths from what the build rendered)."""
    from rewire_site.render import derive_stage, downloads, export, plan, protocol

    calls: list[str] = []

    def counting(module: object, name: str) -> None:
        real = getattr(module, name)

        def wrapper(*args: object, **kwargs: object) -> object:
            calls.append(name)
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    from rewire_site.render import index

    for module in (protocol, downloads):
        counting(module, "protocol_tables")
    for module in (derive_stage, protocol, downloads):
        counting(module, "protocol_headline")
        counting(module, "protocol_reproduction_groups")
    counting(index, "catalogue_findings")
    for name in ("chooser_index", "task_files", "matrix_files"):
        counting(plan, name)
    counting(export, "chooser_pages")
    report = build_site(project, project / "site", release_date=DAY, workers=1)
    protocols = len(list((project / "records").glob("*protocol*.yaml")))
    assert protocols >= 1
    assert calls.count("protocol_tables") == protocols
    assert calls.count("protocol_headline") == protocols
    assert calls.count("protocol_reproduction_groups") == protocols
    assert calls.count("catalogue_findings") == 0  # the home page takes the headlines
    assert calls.count("chooser_pages") == 0  # the sitemap lists the pages the jobs made
    assert calls.count("chooser_index") == 1  # one job each: the index, a task, a family
    jobs = derive_stage.plan_site(
        gather(project / "records", project).catalogue, project, DAY
    ).jobs()
    assert calls.count("task_files") == sum(job[0] == "task" for job in jobs) > 0
    assert calls.count("matrix_files") == sum(job[0] == "matrix" for job in jobs) > 0
    sitemap = (project / "site" / "sitemap.xml").read_text()
    assert "chooser/</loc>" in sitemap  # the chooser pages the build wrote are listed
    assert report.pages == len(list((project / "site").rglob("*.html")))
