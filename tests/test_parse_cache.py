"""parse_cache: cached parses equal fresh ones; a bad cache file only costs time."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

from rewire_site import parse_cache
from rewire_site.parse_cache import CACHE_DIR, ParseCache, load_files
from rewire_site.problems import Problem

RECORD = "# modeline\nid: x\nkind: source\nitems:\n  - a\n  - b\nnumber: 1.5\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_second_load_comes_from_the_cache_and_matches(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", RECORD)
    broken = write(tmp_path, "y.yaml", "a: 1\na: 2\nb: [.nan]\n")
    fresh = load_files([path, broken], tmp_path)
    assert list((tmp_path / CACHE_DIR).glob("parse-*.marshal"))
    store = ParseCache(tmp_path)
    cached = load_files([path, broken], tmp_path, store=store)
    assert store.added == 0 and len(store.used) == 2
    assert cached[1].nonfinite == fresh[1].nonfinite == ["b.0"]
    cached[1].data["b"] = fresh[1].data["b"] = []  # NaN != NaN
    for one, other in zip(fresh, cached, strict=True):
        assert (one.data, one.problems, one.nonfinite, one.sha256, one.schema) == (
            other.data,
            other.problems,
            other.nonfinite,
            other.sha256,
            other.schema,
        )
        assert dict(one.lines) == dict(other.lines)  # read again from the file on demand
    assert cached[1].problems[0].line == 2


def test_changed_bytes_are_parsed_again(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", RECORD)
    load_files([path], tmp_path)
    write(tmp_path, "x.yaml", RECORD.replace("id: x", "id: z"))
    assert load_files([path], tmp_path)[0].data["id"] == "z"


def test_lines_of_a_file_changed_since_parsing_are_not_guessed(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", RECORD)
    load_files([path], tmp_path)
    cached = load_files([path], tmp_path)[0]
    write(tmp_path, "x.yaml", "\n\n" + RECORD)
    assert dict(cached.lines) == {}


def test_a_corrupt_cache_file_is_ignored_and_replaced(tmp_path: Path) -> None:
    path = write(tmp_path, "x.yaml", RECORD)
    load_files([path], tmp_path)
    (cache_file,) = (tmp_path / CACHE_DIR).glob("parse-*.marshal")
    cache_file.write_bytes(b"\x00not marshal")
    assert load_files([path], tmp_path)[0].data["id"] == "x"
    assert ParseCache(tmp_path).entries  # rewritten


def test_caches_of_other_loader_versions_are_removed(tmp_path: Path) -> None:
    (tmp_path / CACHE_DIR).mkdir()
    old = tmp_path / CACHE_DIR / "parse-0000000000000000.marshal"
    old.write_bytes(b"")
    load_files([write(tmp_path, "x.yaml", RECORD)], tmp_path)
    assert not old.exists()


def test_no_cache_writes_nothing(tmp_path: Path) -> None:
    load_files([write(tmp_path, "x.yaml", RECORD)], tmp_path, cache=False)
    assert not (tmp_path / CACHE_DIR).exists()


def test_unreadable_file_is_a_problem(tmp_path: Path) -> None:
    (loaded,) = load_files([tmp_path / "gone.yaml"], tmp_path)
    assert loaded.data is None
    assert "cannot read" in loaded.problems[0].message


def test_each_file_is_read_once_and_parsed_from_the_bytes_hashed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed between two reads could be hashed as one text and parsed as
    another; each file is read once, and its digest is the digest of what was parsed."""
    paths = [write(tmp_path, f"r{i}.yaml", RECORD.replace("x", f"x{i}")) for i in range(3)]
    reads: list[Path] = []
    original = parse_cache.read_bounded

    def counting(path: Path) -> bytes | Problem:
        reads.append(path)
        return original(path)

    monkeypatch.setattr(parse_cache, "read_bounded", counting)
    loaded = load_files(paths, tmp_path, cache=False, jobs=1)
    assert sorted(reads) == sorted(paths)
    for path, item in zip(paths, loaded, strict=True):
        assert item.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
        assert item.data["id"] == path.stem.replace("r", "x")


def test_two_processes_load_what_one_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files parsed by the forked worker (chunks claimed from a shared counter) and here
    come out equal to a one-process load, problems and lines included, each file once."""
    monkeypatch.setattr(parse_cache, "PARALLEL_MIN_FILES", 2)
    monkeypatch.setattr(parse_cache, "CHUNK_MIN_FILES", 1)
    paths = [write(tmp_path, f"r{i}.yaml", RECORD.replace("x", f"x{i}")) for i in range(30)]
    paths.append(write(tmp_path, "dup.yaml", "a: 1\na: 2\n"))
    paths.append(tmp_path / "gone.yaml")
    one = load_files(paths, tmp_path, cache=False, jobs=1)
    for cache in (False, True):  # cold cache: every process reads its own files
        two = load_files(paths, tmp_path, cache=cache, jobs=2)
        assert [item.path for item in two] == paths
        for a, b in zip(one, two, strict=True):
            assert (a.data, a.problems, a.sha256, a.schema) == (
                b.data,
                b.problems,
                b.sha256,
                b.schema,
            )
            assert dict(a.lines) == dict(b.lines)
    streamed = list(parse_cache.iter_files(paths, tmp_path, cache=False, jobs=2))
    assert sorted(item.path for item in streamed) == sorted(paths)


def test_chunks_of_a_worker_that_died_are_parsed_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parse_cache, "PARALLEL_MIN_FILES", 2)
    monkeypatch.setattr(parse_cache, "CHUNK_MIN_FILES", 1)

    def dies(chunks: object, raws: object, counter: Any, results: object) -> None:
        parse_cache._claim(counter)  # claims a chunk, then exits without sending it
        os._exit(3)

    monkeypatch.setattr(parse_cache, "_worker", dies)
    paths = [write(tmp_path, f"r{i}.yaml", RECORD.replace("x", f"x{i}")) for i in range(20)]
    loaded = load_files(paths, tmp_path, cache=False, jobs=2)
    assert [item.data["id"] for item in loaded] == [f"x{i}" for i in range(20)]
