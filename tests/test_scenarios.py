"""The test helpers of tests/scenarios.py: one record-closure walk (`record_closure`,
`copy_closure`) that every test building a small real site from `records/` uses, instead
of a copy of the walk of its own."""

from __future__ import annotations

import ast
from pathlib import Path

from scenarios import copy_closure, record_closure

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _walks_records(function: ast.FunctionDef) -> bool:
    """A function that pops ids off a work list in a loop and reads record files: the
    record-closure walk."""
    loops = [n for n in ast.walk(function) if isinstance(n, ast.While)]
    pops = any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop"
        for loop in loops
        for n in ast.walk(loop)
    )
    reads = any(
        isinstance(n, ast.Attribute) and n.attr in ("read_text", "open")
        for loop in loops
        for n in ast.walk(loop)
    )
    return pops and reads


def test_the_record_closure_walk_is_written_once() -> None:
    copies = [
        f"{path.relative_to(TESTS)}:{node.lineno} {node.name}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "scenarios.py" and not {"fixtures", "golden", "artifacts"} & set(path.parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and _walks_records(node)
    ]
    assert copies == [], "use scenarios.record_closure / copy_closure"


def test_record_closure_follows_references_transitively(tmp_path: Path) -> None:
    measured = "rewire-20261130-hyenadna-e1-eval-speedup"
    found = record_closure([measured], ROOT / "records")
    protocol = "evidence-20261130-protocol-hyenadna-speedup-vs-transformer"
    assert measured in found and protocol in found
    # What the protocol refers to is in too (its sources), and nothing unrelated.
    assert any(i.startswith("evidence-20261130-source") or "source" in i for i in found)
    assert "feng-2024-protocol-h3" not in found
    copied = copy_closure([measured], ROOT / "records", tmp_path / "records")
    assert copied == len(found)
    assert {p.stem for p in (tmp_path / "records").glob("*.yaml")} == set(found)
    assert list((tmp_path / "artifacts").rglob("*")), "the cited raw logs come along"
