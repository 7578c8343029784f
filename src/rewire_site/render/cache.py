"""A cache of values computed from immutable records, keyed by the record object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class IdentityCache(Generic[K, V]):
    """Values computed from immutable records, keyed by the record object itself (records
    hold lists, so they are not hashable). Holds at most `size` entries; the objects are
    kept alive while cached, so an id is never reused for another object."""

    def __init__(self, size: int = 65536) -> None:
        self.size = size
        self._items: dict[int, tuple[K, V]] = {}

    def get(self, key: K, make: Callable[[K], V]) -> V:
        found = self._items.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        value = make(key)
        self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        if len(self._items) >= self.size:
            self._items.clear()
        self._items[id(key)] = (key, value)
