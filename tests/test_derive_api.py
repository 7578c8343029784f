"""The public API of `rewire_site.derive`: everything listed in `__all__` is importable
and the docstring names every public function."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import rewire_site.derive as derive


def test_every_name_in_all_is_exported() -> None:
    missing = [name for name in derive.__all__ if not hasattr(derive, name)]
    assert missing == []


def test_docstring_documents_every_exported_function() -> None:
    doc = derive.__doc__ or ""
    functions = [n for n in derive.__all__ if inspect.isfunction(getattr(derive, n))]
    undocumented = [n for n in functions if f"{n}(" not in doc]
    assert undocumented == []


def test_lazy_names_are_the_type_checking_imports() -> None:
    """`derive` imports most submodules on first use (`_LAZY`, name -> submodule): the
    map must list exactly the names that the `if TYPE_CHECKING:` imports give type
    checkers, each from the same submodule, and resolve to that submodule's object."""
    tree = ast.parse(Path(derive.__file__).read_text(encoding="utf-8"))
    typed: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.level == 1
                for alias in statement.names:
                    typed[alias.name] = str(statement.module)
    lazy = vars(derive)["_LAZY"]
    assert typed == lazy
    assert set(lazy) <= set(derive.__all__)
    for name, module in lazy.items():
        submodule = importlib.import_module(f"rewire_site.derive.{module}")
        assert getattr(derive, name) is getattr(submodule, name)


def test_a_function_named_like_its_submodule_stays_the_function() -> None:
    """Importing `derive.related` (and the like) directly, before the package's attribute
    of that name was read, must not hide the function behind the module."""
    names = ("agreement", "readiness", "related")
    code = (
        "import inspect, importlib, rewire_site.derive as d;"
        f"[importlib.import_module('rewire_site.derive.' + n) for n in {names!r}];"
        f"print([n for n in {names!r} if not inspect.isfunction(getattr(d, n))])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
    for name in names:
        importlib.import_module(f"rewire_site.derive.{name}")
        assert inspect.isfunction(getattr(derive, name)), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = derive.no_such_name  # type: ignore[attr-defined]
