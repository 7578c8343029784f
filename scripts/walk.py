"""One evaluation's walk: the modules of rewire_site that one evaluation page passes
through, from its context builder to its written file (issue 26).

    python scripts/walk.py [--root DIR] [--evaluation ID] [--show] [--modules]
                           [--calls] [--depth N]

Builds the site plan of the catalogue under DIR (default: the `reproduction` test
scenario), then traces (`sys.setprofile`) the three steps of one evaluation page: the
page job (`SitePlan.make`, which calls `render/evaluation.py`'s context builder),
rendering its template, and writing the file. Each Python call and return moves the
walk to the module of the innermost rewire_site frame (calls into Jinja2, Pydantic or
the standard library stay in the module that made them). It prints:

- stays: runs of consecutive steps in one module;
- modules: distinct modules entered;
- returns: stays in a module that the walk had already left (each is a jump back).

`--show` prints the stays in order, `--modules` the stays per module (most first). The
aim (issue 26): at most 9 modules and at most 5 returns. Every call into another module
and back is a return here, so the count grows with each helper call (a label, a Fact, a
URL) as much as with each layer crossed. Two coarser views of the same walk:
`--calls` moves the walk on calls only (a return to the caller is no stay), and
`--depth N` on calls at most N frames of rewire_site deep (1: the page job; 2: what the
page job calls, such as the context builder; 3: what those call).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "rewire_site"


@dataclass(frozen=True)
class Walk:
    stays: tuple[str, ...]
    """The module of each stay, in order."""

    @property
    def modules(self) -> int:
        return len(set(self.stays))

    @property
    def returns(self) -> int:
        return len(self.stays) - self.modules


def _module_of(frame: FrameType | None) -> str | None:
    """The rewire_site module of the innermost frame of the project's code, or None."""
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name == PACKAGE or name.startswith(PACKAGE + "."):
            return str(name)
        frame = frame.f_back
    return None


def _depth(frame: FrameType | None) -> int:
    """How many frames of rewire_site's code are on the stack up to `frame`."""
    found = 0
    while frame is not None:
        found += frame.f_globals.get("__name__", "").startswith(PACKAGE)
        frame = frame.f_back
    return found


def trace(
    step: Callable[[], Any], *, calls: bool = False, depth: int | None = None
) -> tuple[Walk, Any]:
    """The walk of `step()` (the modules it passes through) and its result. `calls`:
    only calls move the walk; `depth`: only calls at most `depth` project frames deep."""
    stays: list[str] = []

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            if depth is not None and _depth(frame) > depth:
                return
            module = _module_of(frame)
        elif event == "return" and not calls and depth is None:
            module = _module_of(frame.f_back)
        else:
            return
        if module is not None and (not stays or stays[-1] != module):
            stays.append(module)

    sys.setprofile(profile)
    try:
        result = step()
    finally:
        sys.setprofile(None)
    return Walk(tuple(stays)), result


def evaluation_walk(
    root: Path, evaluation_id: str | None = None, *, calls: bool = False, depth: int | None = None
) -> tuple[Walk, str]:
    """The walk of one evaluation page of the catalogue under `root` (its first
    evaluation that reproduces another, else its first evaluation), and the page's path."""
    from rewire_site.build import gather
    from rewire_site.models import Evaluation
    from rewire_site.render.derive_stage import plan_site
    from rewire_site.render.environment import Renderer
    from rewire_site.write import OutputWriter

    catalogue = gather(root / "records", root).catalogue
    plan = plan_site(catalogue, root, "2026-01-01")
    evaluations = sorted(
        (r for r in catalogue.by_id.values() if isinstance(r, Evaluation)),
        key=lambda e: (e.reproduces is None, e.id),
    )
    chosen = evaluation_id or evaluations[0].id
    renderer = Renderer(ROOT / "templates")
    renderer.warm()  # template compilation is not part of one page's walk
    with tempfile.TemporaryDirectory() as folder:
        writer = OutputWriter(Path(folder))

        def one_page() -> str:
            (page,) = plan.make(("record", chosen))
            writer.write_bytes(page.path, renderer.render(page.template, page))
            return str(page.path)

        one_page()  # the first page fills caches every later page finds full
        writer = OutputWriter(Path(folder) / "again")
        walk, path = trace(one_page, calls=calls, depth=depth)
        writer.close()
    return walk, path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT / "tests/fixtures/reproduction")
    parser.add_argument("--evaluation")
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--modules", action="store_true")
    parser.add_argument("--calls", action="store_true", help="calls only move the walk")
    parser.add_argument("--depth", type=int, help="only calls this many frames deep")
    args = parser.parse_args(argv)
    walk, path = evaluation_walk(args.root, args.evaluation, calls=args.calls, depth=args.depth)
    if args.show:
        for module in walk.stays:
            print("  " + module)
    if args.modules:
        counts = Counter(walk.stays)
        for module, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            print(f"  {count:5} {module}")
    print(f"{path}: {len(walk.stays)} stays in {walk.modules} modules, {walk.returns} returns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
