"""Golden site: the tiny fixture catalogue `tests/fixtures/golden/` builds to exactly the
bytes committed under `tests/golden/expected/`, and two builds give identical bytes
(gzip downloads included).

After an intended change to the output, regenerate the expected site with ONE command,
then review the diff (`git diff --stat tests/golden/expected`) and commit it:

    REWIRE_REGENERATE_GOLDEN=1 pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import filecmp
import os
import shutil
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

from rewire_site.build import build_site

HERE = Path(__file__).resolve().parent
FIXTURE_ROOT = HERE / "fixtures" / "golden"
EXPECTED = HERE / "golden" / "expected"
RELEASE_DATE = date(2026, 2, 10)
REGENERATE = os.environ.get("REWIRE_REGENERATE_GOLDEN") == "1"


def build(out: Path) -> Path:
    build_site(FIXTURE_ROOT, out, release_date=RELEASE_DATE)
    return out


def tree(folder: Path) -> dict[str, Path]:
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def differences(expected: Path, actual: Path) -> list[str]:
    """Lines naming every file that is missing, extra or different."""
    want, got = tree(expected), tree(actual)
    lines = [f"missing: {name}" for name in sorted(want.keys() - got.keys())]
    lines += [f"extra:   {name}" for name in sorted(got.keys() - want.keys())]
    lines += [
        f"differs: {name}"
        for name in sorted(want.keys() & got.keys())
        if not filecmp.cmp(want[name], got[name], shallow=False)
    ]
    return lines


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("golden") / "site")


def test_golden_site_matches_expected(built: Path) -> None:
    if REGENERATE:
        if EXPECTED.exists():
            shutil.rmtree(EXPECTED)
        shutil.copytree(built, EXPECTED)
        pytest.skip(f"regenerated {EXPECTED}: review `git diff --stat {EXPECTED}` and commit")
    assert EXPECTED.is_dir(), (
        "no expected golden site: run REWIRE_REGENERATE_GOLDEN=1 pytest tests/test_golden.py"
    )
    diff = differences(EXPECTED, built)
    assert not diff, (
        f"{len(diff)} file(s) differ from tests/golden/expected "
        "(if intended: REWIRE_REGENERATE_GOLDEN=1 pytest tests/test_golden.py):\n"
        + "\n".join(diff[:50])
        + first_text_diff(diff, built)
    )


def first_text_diff(diff: list[str], built: Path, lines: int = 30) -> str:
    """A unified diff of the first differing text file, to show what changed."""
    for entry in diff:
        name = entry.split(": ", 1)[1].strip()
        if entry.startswith("differs") and name.endswith((".html", ".json", ".css", ".js")):
            old = (EXPECTED / name).read_text(encoding="utf-8").splitlines()
            new = (built / name).read_text(encoding="utf-8").splitlines()
            body = difflib.unified_diff(old, new, f"expected/{name}", f"built/{name}", n=1)
            return "\n\n" + "\n".join(list(body)[:lines])
    return ""


def test_golden_site_has_every_page_kind(built: Path) -> None:
    """The fixture covers each record kind it holds, so the golden bytes cover them."""
    pages = tree(built)
    for expected_page in (
        "index.html",
        "protocols/golden-protocol/index.html",
        "evaluations/golden-eval-small/index.html",
        "evaluations/golden-eval-large/index.html",
        "evaluations/golden-eval-small-measured/index.html",
        "configurations/golden-config-small/index.html",
        "configurations/golden-config-large/index.html",
        "datasets/golden-dataset/index.html",
        "sources/golden-source/index.html",
        "families/golden-family/index.html",
    ):
        assert expected_page in pages, expected_page
    assert any(name.endswith(".csv.gz") for name in pages)


def test_two_builds_give_identical_bytes(built: Path, tmp_path: Path) -> None:
    """The second build runs in another process, another second, time zone, hash seed and
    working folder: timestamps, set order or paths leaking into the output show here."""
    time.sleep(1.1)
    again = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "TZ": "Asia/Tokyo"}
    code = (
        "import sys, datetime; from pathlib import Path; from rewire_site.build import build_site; "
        "build_site(Path(sys.argv[1]), Path(sys.argv[2]), "
        f"release_date=datetime.date.fromisoformat('{RELEASE_DATE.isoformat()}'))"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(FIXTURE_ROOT), str(again)],
        check=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    diff = differences(built, again)
    assert not diff, "two builds of the same records differ:\n" + "\n".join(diff)
    assert any(name.endswith(".gz") for name in tree(again)), "no gzip file was compared"


def test_fixture_catalogue_is_clean() -> None:
    """The golden catalogue validates with no error and no warning (`--strict`)."""
    from rewire_site.validate import validate_paths

    report = validate_paths([FIXTURE_ROOT / "records"], FIXTURE_ROOT)
    assert report.problems == [], "\n".join(str(p) for p in report.problems)
    kinds = sorted(type(r).__name__ for r in report.records.values())
    assert kinds.count("Evaluation") == 3 and kinds.count("Configuration") == 2
