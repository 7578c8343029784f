"""The public API of `rewire_site.derive`: everything listed in `__all__` is importable
and the docstring names every public function."""

from __future__ import annotations

import inspect

import rewire_site.derive as derive


def test_every_name_in_all_is_exported() -> None:
    missing = [name for name in derive.__all__ if not hasattr(derive, name)]
    assert missing == []


def test_docstring_documents_every_exported_function() -> None:
    doc = derive.__doc__ or ""
    functions = [n for n in derive.__all__ if inspect.isfunction(getattr(derive, n))]
    undocumented = [n for n in functions if f"{n}(" not in doc]
    assert undocumented == []
