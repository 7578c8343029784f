"""Per-item memo of the site-wide jobs (`rewire serve` only).

The site-wide files (the evaluation matrix CSV, api/derived.json, the Every Eval Ever
export) read every evaluation, so any edit re-makes them. Their per-item pieces (one
evaluation's CSV rows or EEE line, one protocol's standings) are computed through a
`Memo`: each piece keeps the dependency keys its computation read (the same keys as the
page jobs, `track.py`) and is reused until an edit changes one of them
(`Memo.invalidate`), so the job only joins cached pieces, serialises and compresses.

A piece used (computed or kept) adds one key to the running job's keys, `("memo",
piece key)`, not the keys the piece read: `invalidate` drops the pieces an edit reached
(found through an index from each key to the pieces that read it, not by scanning every
piece) and returns their `("memo", ...)` keys, so the jobs that used them are remade. A
piece that used other pieces is dropped with them. `rewire build` passes no memo: every
piece is computed.

The memo also keeps each gzip file's compressed segments (`segments`,
`render.downloads.gzip_bytes`), so an edit recompresses only the segments whose text
changed; each file keeps only the segments of its last compression.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from ..render.contexts import SharedRows
from ..render.downloads import GzipSegments
from .track import Key, Recorder

V = TypeVar("V")


class Memo:
    """Pieces by key, each with the dependency keys it read, kept between edits."""

    def __init__(self, recorder: Recorder | None = None) -> None:
        self.recorder = recorder if recorder is not None else Recorder()
        """The recorder of the running job (set by the engine for each update)."""
        self.items: dict[Hashable, tuple[Any, frozenset[Key]]] = {}
        self.readers: dict[Key, set[Hashable]] = {}
        """Key -> the pieces that read it (may name pieces dropped since: `invalidate`
        skips them)."""
        self.hits = 0
        self.misses = 0
        self.gzip: dict[str, GzipSegments] = {}
        """Each gzip file's compressed segments, by site path (bytes in, bytes out: no
        dependency keys, never invalidated; each holds only its last call's segments)."""
        self.added: list[Hashable] | None = None
        """When a list: the keys of the pieces computed since (the engine's forked child
        sends them back, with the gzip files in `touched`)."""
        self.touched: set[str] = set()
        self.rows: dict[str, SharedRows] = {}
        """Rendered rows by name, this process's own (`shared_rows`)."""

    def __call__(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The piece `key`: the kept one, or `compute()` (its reads recorded)."""
        recorder = self.recorder
        found = self.items.get(key)
        if found is not None:
            self.hits += 1
            if recorder.keys is not None:
                recorder.keys.add(("memo", key))
            value: V = found[0]
            return value
        self.misses += 1
        outer = recorder.keys
        recorder.keys = set()
        try:
            value = compute()
        finally:
            inner = frozenset(recorder.keys)
            recorder.keys = outer
        if outer is not None:
            outer.add(("memo", key))
        self._put(key, (value, inner))
        if self.added is not None:
            self.added.append(key)
        return value

    def _put(self, key: Hashable, piece: tuple[Any, frozenset[Key]]) -> None:
        self.items[key] = piece
        readers = self.readers
        for read in piece[1]:
            found = readers.get(read)
            if found is None:
                readers[read] = {key}
            else:
                found.add(key)

    def segments(self, path: str) -> GzipSegments:
        """The compressed segments of the gzip file at `path` (`gzip_bytes`'s `kept`)."""
        self.touched.add(path)
        found = self.gzip.get(path)
        if found is None:
            found = self.gzip[path] = GzipSegments()
        return found

    def shared_rows(self, name: str) -> SharedRows:
        """This process's rendered rows `name` (`render.contexts.SharedRows`): not a
        piece, never sent to or from the replica (weak references do not pickle), kept
        until `clear`."""
        found = self.rows.get(name)
        if found is None:
            found = self.rows[name] = SharedRows()
        return found

    def begin(self) -> None:
        """Note the pieces computed and the gzip files compressed from now on (`since`)."""
        self.added, self.touched = [], set()

    def since(self) -> tuple[list[tuple[Hashable, tuple[Any, frozenset[Key]]]], dict[str, Any]]:
        """The pieces computed and the gzip files compressed since `begin`; stops noting
        them."""
        pieces = [(k, self.items[k]) for k in self.added or ()]
        gzip = {p: self.gzip[p].delta() for p in self.touched}
        self.added, self.touched = None, set()
        return pieces, gzip

    def merge(
        self, pieces: list[tuple[Hashable, tuple[Any, frozenset[Key]]]], gzip: dict[str, Any]
    ) -> None:
        """Take what the replica computed (`since`). `misses` counts the pieces new
        here: one that both processes computed in an update (two jobs that use it, one
        on each side) counts once."""
        for key, piece in pieces:
            self.misses += key not in self.items
            self._put(key, piece)
        for path, delta in gzip.items():
            found = self.gzip.get(path)
            if found is None:
                found = self.gzip[path] = GzipSegments()
            found.apply(delta)

    def invalidate(self, changed: Iterable[Key]) -> set[Key]:
        """Drop the pieces that read one of the `changed` keys, and the pieces that used
        those; returns the `("memo", piece key)` key of each piece dropped."""
        dropped: set[Key] = set()
        work = list(changed)
        while work:
            for key in self.readers.pop(work.pop(), ()):
                if self.items.pop(key, None) is not None:
                    used: Key = ("memo", key)
                    dropped.add(used)
                    work.append(used)
        return dropped

    def clear(self) -> None:
        self.items.clear()
        self.readers.clear()
        self.gzip.clear()
        self.rows.clear()
