"""Atomic site writes (write.py): the previous site stays byte-identical when a build
fails, one output path cannot be written twice, only a folder the builder made (or an
empty one) is ever replaced, and a second build into the same place waits."""

from __future__ import annotations

import hashlib
import threading
import time
from pathlib import Path

import pytest

from rewire_site import write
from rewire_site.write import (
    MARKER,
    MARKER_TEXT,
    DoubleWrite,
    OutputError,
    OutputWriter,
    Removal,
    TargetRefused,
    atomic_write_site,
    build_lock,
    exchange,
    recover,
)

MARKED = hashlib.sha256(MARKER_TEXT.encode()).hexdigest()


def _snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _previous_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    (site / "protocols" / "p").mkdir(parents=True)
    (site / MARKER).write_text(MARKER_TEXT)  # built by rewire
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
        MARKER: MARKED,
        "api/evaluation/e.json": hashlib.sha256(b"{}\n").hexdigest(),
        "index.html": hashlib.sha256(b"new home").hexdigest(),
    }
    assert _leftovers(tmp_path) == []


def test_previous_site_handed_over_renamed_aside_then_removed(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)
    handed: list[Path | None] = []
    atomic_write_site(lambda w: w.write_text("index.html", "new"), site, handed.append)
    (old,) = handed
    assert old is not None and old.parent == tmp_path and old.name.startswith(".site.trash-")
    assert _snapshot(old) == {
        MARKER: MARKED,
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
    """The two-rename swap (where the atomic exchange is missing)."""
    monkeypatch.setattr(write, "RENAME_EXCHANGE", False)
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


def test_a_double_write_is_refused_when_it_comes_naming_path_and_both_writers(
    tmp_path: Path,
) -> None:
    writer = OutputWriter(tmp_path)
    writer.write_text("a/index.html", "first", by="the protocol page job")
    with pytest.raises(DoubleWrite) as refused:
        writer.write_text("a/./index.html", "second", by="the static files")
    assert str(refused.value) == (
        "a/index.html: written twice in one build, first by the protocol page job, then by "
        "the static files (two outputs share a path)"
    )
    assert (tmp_path / "a" / "index.html").read_text() == "first"  # the first write stands


def test_a_file_already_in_the_folder_is_refused_too(tmp_path: Path) -> None:
    """Another process's file (no entry in this writer): O_EXCL refuses it."""
    (tmp_path / "claims").mkdir()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "x.html").write_text("theirs")
    writer = OutputWriter(tmp_path / "site", tmp_path / "claims")
    with pytest.raises(DoubleWrite, match=r"x\.html: written twice .* first by another writer"):
        writer.write_text("x.html", "mine", by="me")
    assert (tmp_path / "site" / "x.html").read_text() == "theirs"


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


def _user_folder(tmp_path: Path) -> Path:
    """A folder of someone's own files: what `--out ~/Desktop` would point at."""
    folder = tmp_path / "Desktop"
    (folder / "Documents").mkdir(parents=True)
    (folder / "precious.txt").write_text("keep me")
    (folder / "Documents" / "thesis.txt").write_text("four years")
    return folder


def test_a_folder_the_builder_did_not_make_is_refused_and_left_alone(tmp_path: Path) -> None:
    folder = _user_folder(tmp_path)
    before = _snapshot(folder)
    built: list[str] = []
    with pytest.raises(TargetRefused) as caught:
        atomic_write_site(lambda w: built.append("ran"), folder)
    message = str(caught.value)
    assert str(folder) in message
    assert "Documents/, precious.txt (2 entries)" in message
    assert "Nothing was changed" in message and "--out" in message
    assert built == []  # refused before anything was built
    assert _snapshot(folder) == before
    assert _leftovers(tmp_path) == ["Desktop"]


def test_a_site_of_an_older_version_without_marker_says_how_to_proceed(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)
    (site / MARKER).unlink()  # built before the marker existed
    before = _snapshot(site)
    with pytest.raises(TargetRefused, match=r"delete it yourself and build again"):
        atomic_write_site(lambda w: w.write_text("index.html", "new"), site)
    assert _snapshot(site) == before


def test_an_empty_folder_is_replaced_and_then_carries_the_marker(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    atomic_write_site(lambda w: w.write_text("index.html", "x"), site)
    assert _snapshot(site) == {MARKER: MARKED, "index.html": hashlib.sha256(b"x").hexdigest()}
    atomic_write_site(lambda w: w.write_text("index.html", "y"), site)  # its own: replaced
    assert (site / "index.html").read_text() == "y"


def test_a_file_where_the_site_should_be_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.write_text("not a folder")
    with pytest.raises(TargetRefused, match="not a folder"):
        atomic_write_site(lambda w: w.write_text("index.html", "x"), target)
    assert target.read_text() == "not a folder"


def test_the_marker_cannot_be_written_as_a_page(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="marker"):
        OutputWriter(tmp_path).write_text(MARKER, "x")


def test_recover_puts_back_a_site_a_killed_swap_left_aside(tmp_path: Path) -> None:
    """The state a build killed between the swap's two renames leaves: no site, the
    previous one renamed aside, the new one still staged."""
    site = _previous_site(tmp_path)
    before = _snapshot(site)
    site.rename(tmp_path / ".site.old-0123456789ab")
    staged = tmp_path / ".site.new-abcdef"
    staged.mkdir()
    (staged / MARKER).write_text(MARKER_TEXT)
    (staged / "index.html").write_text("half")
    empty = tmp_path / ".site.new-killedearly"  # killed before its marker was written
    empty.mkdir()
    theirs = tmp_path / ".site.new-notours"  # looks like ours, is not: left alone
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine")
    done = recover(site)
    assert _snapshot(site) == before
    assert len(done) == 3, done
    assert _leftovers(tmp_path) == [".site.new-notours"]


def test_a_second_build_waits_for_the_first_and_says_why(tmp_path: Path) -> None:
    site = _previous_site(tmp_path)
    heard: list[str] = []
    finished: list[float] = []

    def second() -> None:
        atomic_write_site(lambda w: w.write_text("index.html", "second"), site, None, heard.append)
        finished.append(time.monotonic())

    with build_lock(tmp_path):
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.5)
        assert finished == [], "the second build ran while the first held the lock"
        assert (site / "index.html").read_bytes() == b"old home"
        released = time.monotonic()
    thread.join(timeout=10)
    assert finished and finished[0] >= released
    assert heard == [f"another build is writing into {tmp_path}; waiting for it to finish"]
    assert (site / "index.html").read_text() == "second"


def test_exchange_swaps_two_folders_in_one_step(tmp_path: Path) -> None:
    """Where the system has renameat2(RENAME_EXCHANGE) the swap is one atomic call."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "from-a").write_text("a")
    (tmp_path / "b").mkdir()
    if not exchange(tmp_path / "a", tmp_path / "b"):
        pytest.skip("no renameat2(RENAME_EXCHANGE) here: the two-rename swap is used")
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["from-a"]
    assert list((tmp_path / "a").iterdir()) == []


@pytest.mark.parametrize("atomic", [True, False], ids=["exchange", "two-renames"])
def test_both_swaps_replace_the_site_and_leave_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, atomic: bool
) -> None:
    monkeypatch.setattr(write, "RENAME_EXCHANGE", atomic)
    site = _previous_site(tmp_path)
    atomic_write_site(lambda w: w.write_text("index.html", "new"), site)
    assert _snapshot(site) == {MARKER: MARKED, "index.html": hashlib.sha256(b"new").hexdigest()}
    assert _leftovers(tmp_path) == []
