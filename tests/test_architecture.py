"""The structure drawn from the code's own imports (design.md, "The pipeline"): no import
cycle in src/ or measure/; derive/ is below render/ and never imports it (the page
families chooser/, fits/ and export/ live under render/); derive/ writes no markup.

The import graph is read from the source files with `ast` (every import, including those
inside functions and under `if TYPE_CHECKING:`), so the test runs without importing the
modules and without the measure extras.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGES = (SRC / "rewire_site", ROOT / "measure")


def module_name(path: Path) -> str:
    base = SRC if path.is_relative_to(SRC) else ROOT
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> Mapping[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted(package.rglob("*.py"))}


def imported(name: str, path: Path, known: Mapping[str, Path]) -> Iterator[tuple[str, int]]:
    """(module of the catalogue's own code, line) for each import in `path`. `from p
    import m` where `m` is a module counts as importing `m` (Python runs `p`'s __init__
    first either way, but that is the package's own business, not an arrow)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                target = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            found = subs if subs and len(subs) == len(node.names) else [target, *subs]
        elif isinstance(node, ast.Import):
            found = [a.name for a in node.names]
        else:
            continue
        for target in found:
            if target in known and target != name:
                yield target, node.lineno


@cache
def graph() -> Mapping[str, Mapping[str, int]]:
    """Module -> module it imports -> line of the (first) import."""
    known = modules()
    edges: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        targets: dict[str, int] = {}
        for target, line in imported(name, path, known):
            targets.setdefault(target, line)
        edges[name] = targets
    return edges


def cycles(edges: Mapping[str, Mapping[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read() -> None:
    """A guard for the tests below: the graph has the modules and arrows it must have."""
    edges = graph()
    assert "rewire_site.render.evaluation" in edges
    assert "rewire_site.derive.tables" in edges["rewire_site.render.comparison_table"]
    assert "measure.builder" in edges["measure.peak_memory.records"]


def test_cycles_are_found() -> None:
    """The cycle finder finds a cycle of three and leaves a chain alone."""
    ring = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(ring) == [["a", "b", "c"]]
    assert cycles({"a": {"b": 1}, "b": {}}) == []


def test_no_import_cycle_in_src_or_measure() -> None:
    edges = graph()
    found = cycles(edges)
    described = [
        " -> ".join(f"{m} (line {edges[m][n]})" for m, n in zip(c, [*c[1:], c[0]], strict=True))
        if all(n in edges[m] for m, n in zip(c, [*c[1:], c[0]], strict=True))
        else ", ".join(c)
        for c in found
    ]
    assert not found, "import cycles:\n" + "\n".join(described)


UPPER = ("rewire_site.render", "rewire_site.incremental")
UPPER_MODULES = {"rewire_site.build", "rewire_site.serve", "rewire_site.cli", "rewire_site.write"}


def _is_upper(module: str) -> bool:
    return module in UPPER_MODULES or any(module == u or module.startswith(u + ".") for u in UPPER)


@pytest.mark.parametrize("layer", ["rewire_site.derive", "rewire_site.models", "measure"])
def test_lower_layers_never_import_render(layer: str) -> None:
    """derive/ returns facts; render/ (with its page families chooser/, fits/, export/)
    presents them: nothing below render/ imports it, nor the drivers above it."""
    wrong = [
        f"{module_name_} imports {target} (line {line})"
        for module_name_, targets in graph().items()
        if module_name_ == layer or module_name_.startswith(layer + ".")
        for target, line in targets.items()
        if _is_upper(target)
    ]
    assert not wrong, "\n".join(wrong)


def test_page_families_live_under_render() -> None:
    """chooser/, fits/ and export/ are page families of render/ (issue 26): no package of
    that name sits beside render/ where it could import render/ back."""
    beside = [
        p.name for p in (SRC / "rewire_site").iterdir() if p.name in {"chooser", "fits", "export"}
    ]
    assert not beside


MARKUP_TAGS = (
    "a|abbr|b|br|caption|circle|code|details|div|em|g|h[1-6]|i|li|line|mark|ol|p|path|"
    "polyline|rect|small|span|strong|sub|summary|sup|svg|table|td|text|th|tr|ul"
)


def markup_in(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string in `source`, docstrings left out, that holds an HTML or
    SVG tag."""
    tag = re.compile(rf"</?(?:{MARKUP_TAGS})(?:\s[^<>]*)?/?>", re.IGNORECASE)
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    # An attribute's docstring (a bare string under an assignment) is a docstring too.
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            statements = getattr(node, field, None)
            for stmt in statements if isinstance(statements, list) else []:
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    docstrings.add(id(stmt.value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):  # an f-string: its text with {} for each value
            text = "".join(
                str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values
            )
            docstrings.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if id(node) not in docstrings and tag.search(text):
            found.append((node.lineno, text))
    return found


def test_markup_finder_finds_markup() -> None:
    assert markup_in('x = f"<span class={c}>{v}</span>"\n') == [(1, "<span class={}>{}</span>")]
    assert markup_in("x = \"<svg viewBox='0 0 1 1'>\"\n") == [(1, "<svg viewBox='0 0 1 1'>")]
    assert markup_in('"""Writes <a href> links."""\nx = "a < b > c"\n') == []


def test_derive_writes_no_markup() -> None:
    """derive/ returns facts: no string in it holds an HTML or SVG tag, and it never
    builds markupsafe's Markup (templates and render/ do)."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in sorted((SRC / "rewire_site" / "derive").rglob("*.py"))
        for line, text in markup_in(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)
    users = [
        name
        for name, path in modules().items()
        if name.startswith("rewire_site.derive")
        and "markupsafe" in path.read_text(encoding="utf-8")
    ]
    assert not users


def display_formatting_in(source: str) -> list[tuple[int, str]]:
    """(line, what) of each place in `source` that formats a value for a reader, as far as
    `ast` can tell: a number format in an f-string (`{x:.3g}`, `{n:,}`), `str.format` on a
    literal, `format()`, %-formatting of a literal, and any import of a module named
    `display` (the presentation helpers). Plain interpolation (`f"{a}: {b}"`) is not
    caught: ids and keys are built that way too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            found.append((node.lineno, "a number format in an f-string"))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
        ) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "format"
        ):
            found.append((node.lineno, "format()"))
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
        ):
            found.append((node.lineno, "%-formatting"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "display":
            found.append((node.lineno, f"imports {node.module}"))
        elif isinstance(node, ast.Import) and any(a.name.endswith(".display") for a in node.names):
            found.append((node.lineno, "imports a display module"))
    return found


def test_display_formatting_finder_finds_formatting() -> None:
    sample = (
        "from .display import plural\n"
        "a = f'{value:.3g} GB'\n"
        "b = '{} of {}'.format(n, m)\n"
        "c = '%d runs' % n\n"
        "d = format(x, ',')\n"
    )
    assert sorted(line for line, _ in display_formatting_in(sample)) == [1, 2, 3, 4, 5]
    assert display_formatting_in("key = f'{protocol_id}:{column}'\n") == []
    # Number formatting as render/present/numbers.py does it is caught in derive/.
    assert display_formatting_in(
        "def display_number(value: float, decimals: int) -> str:\n"
        "    return f'{value:.{decimals}f}'\n"
    )


def test_derive_formats_no_reader_text() -> None:
    """derive/ returns facts (issue 26): no module in it formats a number for a reader or
    imports a display module; `render/present/` holds the helpers that make reader text."""
    derive = SRC / "rewire_site" / "derive"
    found = [
        f"derive/{path.stem}.py:{line}: {what}"
        for path in sorted(derive.rglob("*.py"))
        for line, what in display_formatting_in(path.read_text(encoding="utf-8"))
    ]
    assert not found, "derive/ formats reader text (move it to render/present/):\n" + "\n".join(
        found
    )


def string_builders_in(source: str) -> list[tuple[str, int]]:
    """(scope, line) of each place in `source` that builds a string from pieces: an
    f-string, a join on a string literal (`", ".join(...)`), or `+` with a non-blank
    string literal. The scope is the enclosing class and function names ('<module>' at
    the top level). Exception messages (inside `raise`) are for developers, not readers,
    and are left out; an f-string inside an f-string counts once."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, scope: str) -> None:
        if isinstance(node, ast.Raise):
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = f"{scope}.{node.name}" if scope else node.name
        builds = (
            isinstance(node, ast.JoinedStr)
            or (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "join"
                and isinstance(node.func.value, ast.Constant)
                and isinstance(node.func.value.value, str)
            )
            or (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Add)
                and any(
                    isinstance(side, ast.Constant)
                    and isinstance(side.value, str)
                    and side.value.strip()
                    for side in (node.left, node.right)
                )
            )
        )
        if builds:
            found.append((scope or "<module>", node.lineno))
            if isinstance(node, ast.JoinedStr):
                return
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(ast.parse(source), "")
    return found


def test_string_builder_finder_finds_builders() -> None:
    sample = (
        "def title(name, keys):\n"
        "    return f'{name} ({\", \".join(keys)})'\n"
        "class Row:\n"
        "    def label(self):\n"
        "        return ', '.join(self.names)\n"
        "KEY = 'setup:' + PART\n"
        "def check(x):\n"
        "    if not x:\n"
        "        raise ValueError(f'bad {x!r}')\n"
        "    return x + ''\n"
    )
    assert string_builders_in(sample) == [("title", 2), ("Row.label", 5), ("<module>", 6)]


KEY_BUILDERS: dict[str, tuple[int, str]] = {
    "__init__:__getattr__": (1, "the module path a lazy attribute is imported from"),
    "artifacts:orphan_artifacts": (1, "a folder prefix of file paths"),
    "comparability:input_length": (
        1,
        "a grouping key that keeps token lengths apart from nucleotide lengths ('512 "
        "tokens'); no page shows it",
    ),
    "comparability:conditions": (1, "the metric grouping key '<metric id> in <unit>'"),
    "comparability:standings": (2, "a placeholder competitor key for results of none"),
    "concerns:_length_unit": (1, "a record field path looked up in missing_metadata"),
    "concerns:_trivial": (1, "a flag kind ('trivial_<finding>')"),
    "model_compare:family_tables": (1, "a task key where a result names no dataset"),
    "model_results:_table_results": (1, "a task key where a result names no dataset"),
    "names:order_text": (
        9,
        "the ordering key of a row name: rows sort on the characters the name reads as "
        "(titles hold parentheses of their own, so no tuple of its parts sorts the same); "
        "render/present/names.row_title words it and a test holds the two equal",
    ),
    "scales:is_correlation": (1, "the text a metric-name pattern is searched in"),
    "table_board:_model": (2, "a board model's key: table and label, or family and checkpoint"),
    "table_board:table_board": (1, "the metric grouping key '<metric id> in <unit>'"),
    "tables:comparison": (2, "a setup row's grouping key ('setup:' and its values)"),
    "task_families:<module>": (1, "a regular expression built from a pattern"),
}
"""Places in derive/ that build a string that is an id, key, path or pattern, never text
a reader sees: how many builders each function holds, and why they may stay."""


def test_derive_builds_no_reader_text() -> None:
    """derive/ returns facts (issue 26): every f-string, string join or concatenation in it
    is an id, key, path or pattern (`KEY_BUILDERS`, with its reason). A builder anywhere
    else, or one more in a listed function, fails: move the text to render/
    (`render/present/` or the page's context module) and return its parts. A listed
    function that builds fewer fails too, so that the list shrinks with the code."""
    counts: dict[str, int] = {}
    for path in sorted((SRC / "rewire_site" / "derive").rglob("*.py")):
        for scope, _line in string_builders_in(path.read_text(encoding="utf-8")):
            name = f"{path.stem}:{scope}"
            counts[name] = counts.get(name, 0) + 1
    allowed = {name: count for name, (count, _why) in KEY_BUILDERS.items()}
    assert counts == allowed, (
        "derive/ builds strings outside KEY_BUILDERS (move reader text to render/; "
        "list a key builder in KEY_BUILDERS with its reason; shrink it when a "
        f"builder goes): found {dict(sorted(counts.items()))}"
    )


_PHRASE = re.compile(r"^[A-Za-z][a-z]*( [a-z(][\w(),'.-]*)+$")
"""Two or more words, the first perhaps capitalised: 'no better than a trivial answer'."""


def phrases_in(source: str) -> list[tuple[str, int]]:
    """(scope, line) of each string literal in `source` that reads as words (`_PHRASE`),
    leaving out docstrings, exception messages, patterns handed to `re` and f-strings
    (`string_builders_in` counts those)."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            skip.update(
                id(statement.value)
                for statement in node.body
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            )
        if isinstance(node, ast.Raise | ast.JoinedStr) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
        ):
            skip.update(id(inner) for inner in ast.walk(node))
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, scope: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = f"{scope}.{node.name}" if scope else node.name
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in skip
            and _PHRASE.match(node.value)
        ):
            found.append((scope or "<module>", node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, "")
    return found


def test_phrase_finder_finds_labels() -> None:
    sample = (
        '"""A module docstring, not a label."""\n'
        'TRIVIAL_LABEL = "no better than a trivial answer"\n'
        "def kind(x):\n"
        "    if x is None:\n"
        "        raise ValueError('no kind given')\n"
        "    return 'Splice sites' if re.search(r'splice site', x) else 'other'\n"
    )
    assert phrases_in(sample) == [("<module>", 2), ("kind", 6)]


DATA_WORDS: dict[str, tuple[int, str]] = {
    "comparability:<module>": (
        2,
        "what records write for an inapplicable or unstated condition, matched in them",
    ),
    "fits:<module>": (1, "a tokeniser fact's words for one base per token, matched"),
    "table_facts:<module>": (2, "setting names that mark a repeat (seed, replicate), matched"),
    "cross_source:_scaled": (
        1,
        "the scale key of values kept as recorded ('as recorded', beside 'fraction'), a "
        "value of the cross-source download's scale column",
    ),
    "scales:canonical_value": (
        1,
        "the unit exports write for a correlation ('correlation coefficient', beside "
        "'percent' and 'fraction'), a value of the downloads' unit column",
    ),
}
"""Phrases in derive/ that are data, not a page's words: the records' own vocabulary,
matched in what records write, and the values downloads write in a column. A page that
shows one words it in render/."""


def test_derive_holds_no_reader_phrases() -> None:
    """derive/ returns facts (issue 26): a string literal in it that reads as words
    ('no better than a trivial answer') is data (`DATA_WORDS`, with its reason); anywhere
    else, or one more in a listed scope, fails: return a key or an enum and word it in
    render/ (`render/present/`). A listed scope that holds fewer fails too, so that the
    list shrinks with the code."""
    counts: dict[str, int] = {}
    for path in sorted((SRC / "rewire_site" / "derive").rglob("*.py")):
        for scope, _line in phrases_in(path.read_text(encoding="utf-8")):
            name = f"{path.stem}:{scope}"
            counts[name] = counts.get(name, 0) + 1
    allowed = {name: count for name, (count, _why) in DATA_WORDS.items()}
    assert counts == allowed, (
        "derive/ holds reader phrases (word them in render/, or list data in DATA_WORDS "
        f"with its reason): found {dict(sorted(counts.items()))}"
    )
