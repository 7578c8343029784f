"""Atomic site writes (write.py): the previous site stays byte-identical when a build
fails, and one output path cannot be written twice."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rewire_site.write import OutputError, OutputWriter, Removal, atomic_write_site


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _previous_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "protocols" / "p").mkdir(parents=True)
    (site / "index.html").write_bytes(b"old home")
    (site / "protocols" / "p" / "index.html").write_bytes(b"old protocol")
    return site


def _leftovers(tmp_path: Path) -> list[str]:
    return sorted(p.name for p in tmp_path.iterdir() if p.name != "site")


def test_build_replaces_the_site_and_returns_its_result(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)

    def build(writer: OutputWriter) -> int:
        writer.write_text("index.html", "new home")
        writer.write_bytes("api/evaluation/e.json", b"{}\n")
        return len(writer.entries())

    assert atomic_write_site(build, site) == 2
    assert _snapshot(site) == {
        "api/evaluation/e.json": hashlib.sha256(b"{}\n").hexdigest(),
        "index.html": hashlib.sha256(b"new home").hexdigest(),
    }
    assert _leftovers(tmp_path) == []


def test_previous_site_handed_over_renamed_aside_then_removed(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)
    handed: list[Path | None] = []
    atomic_write_site(lambda w: w.write_text("index.html", "new"), site, handed.append)
    (old,) = handed
    assert old is not None and old.parent == tmp_path and old.name.startswith(".site.old-")
    assert _snapshot(old) == {
        "index.html": hashlib.sha256(b"old home").hexdigest(),
        "protocols/p/index.html": hashlib.sha256(b"old protocol").hexdigest(),
    }
    assert (site / "index.html").read_text() == "new"
    removal = Removal(old)
    assert removal.wait() >= 0.0
    assert _leftovers(tmp_path) == []


def test_first_build_hands_over_no_previous_site(tmp_path: Path) -> None:
    handed: list[Path | None] = []
    atomic_write_site(lambda w: w.write_text("index.html", "x"), tmp_path / "site", handed.append)
    assert handed == [None]
    assert Removal(None).wait() == 0.0


def test_first_build_creates_the_site(tmp_path: Path) -> None:
    site = tmp_path / "out" / "site"
    atomic_write_site(lambda w: w.write_text("index.html", "x"), site)
    assert (site / "index.html").read_text() == "x"


@pytest.mark.parametrize("error", [RuntimeError("template failed"), KeyboardInterrupt()])
def test_exception_midway_leaves_the_previous_site_byte_identical(
    tmp_path: Path, error: BaseException
) -> None:
    site = _previous_site(tmp_path)
    before = _snapshot(site)

    def build(writer: OutputWriter) -> None:
        writer.write_text("index.html", "half-built home")
        writer.write_text("protocols/p/index.html", "half-built protocol")
        raise error

    with pytest.raises(type(error)):
        atomic_write_site(build, site)
    assert _snapshot(site) == before
    assert _leftovers(tmp_path) == []


def test_writing_one_path_twice_is_refused_and_nothing_is_swapped(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)
    before = _snapshot(site)

    def build(writer: OutputWriter) -> None:
        writer.write_text("protocols/p/index.html", "first")
        writer.write_text("protocols/./p/index.html", "second")

    with pytest.raises(OutputError, match=r"protocols/p/index\.html: written twice"):
        atomic_write_site(build, site)
    assert _snapshot(site) == before


def test_failed_swap_puts_the_previous_site_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = _previous_site(tmp_path)
    before = _snapshot(site)
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if self.name.startswith(".site.new-"):
            raise OSError("disk full")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_site(lambda w: w.write_text("index.html", "new"), site)
    assert _snapshot(site) == before
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("bad", ["../escape.html", "/etc/passwd", "", "a/../../b", "."])
def test_paths_outside_the_site_are_refused(tmp_path: Path, bad: str) -> None:
    writer = OutputWriter(tmp_path)
    with pytest.raises(OutputError):
        writer.write_text(bad, "x")


def test_entries_record_each_file_hash(tmp_path: Path) -> None:
    writer = OutputWriter(tmp_path)
    writer.write_bytes("b.txt", b"b")
    writer.write_bytes("a/x.txt", b"a")
    assert [(e.path, e.size_bytes) for e in writer.entries()] == [("a/x.txt", 1), ("b.txt", 1)]
    assert writer.entries()[1].sha256 == hashlib.sha256(b"b").hexdigest()
    assert "a/x.txt" in writer


def test_refuses_to_replace_a_project_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    with pytest.raises(OutputError, match="looks like a project folder"):
        atomic_write_site(lambda w: w.write_text("index.html", "x"), tmp_path)
    assert (tmp_path / "pyproject.toml").exists()
