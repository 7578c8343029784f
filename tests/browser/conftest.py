"""Fixtures of the browser tests: a site built once per test session from a bounded
catalogue of real records, served over loopback by the standard library, and Debian's
Chromium driven by Playwright.

The catalogue is `catalogue.txt`: a fixed list of record files of `records/`, with every
record they refer to. Its size does not change when editors add records (the guide: a
test must not depend on the live catalogue's size), and it holds every page type with its
long-content cases. Under pytest-xdist the first worker builds it and the others wait for
it (a lock in the session's shared temporary folder), so the site is built once.

Browser tests carry the `browser` marker and are skipped, with the reason, when Chromium
(`REWIRE_CHROMIUM`, else `chromium` on PATH, else `/usr/bin/chromium`) or the `playwright`
package is missing. The browser is never
downloaded (`playwright install` is not used): install it with `apt-get install -y chromium`.
Screenshots are kept under `tests/artifacts/screenshots/` (gitignored; CI uploads them).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from datetime import date
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from scenarios import copy_closure

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(
    os.environ.get("REWIRE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
)
SCREENSHOTS = ROOT / "tests" / "artifacts" / "screenshots"
RELEASE_DATE = date(2026, 10, 22)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 30_000


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.is_file():
        return f"{CHROMIUM} is missing (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is missing (pip install playwright; no browser download)"
    return None


CATALOGUE = Path(__file__).with_name("catalogue.txt")
MAX_RECORDS = 400
"""Bound of the copied catalogue: the listed records and all they refer to."""


def listed_records() -> list[str]:
    """Ids named by catalogue.txt, in file order."""
    lines = CATALOGUE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def copy_bounded_project(root: Path, project: Path) -> int:
    """Copy the listed records of `root`, every record they refer to and the artifact
    files they name into `project`; return how many records."""
    files = {path.stem for path in (root / "records").glob("*.yaml")}
    missing = [i for i in listed_records() if i not in files]
    assert not missing, f"{CATALOGUE.name} names records that {root} lacks: {missing}"
    count = copy_closure(listed_records(), root / "records", project / "records")
    assert count <= MAX_RECORDS, (
        f"{CATALOGUE.name}'s records and what they refer to are {count} records, "
        f"more than {MAX_RECORDS}: the browser tests' catalogue is meant to stay small"
    )
    return count


def _shared_temp(factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The session's temporary folder that every xdist worker sees (the one above each
    worker's own), or the session's own without xdist."""
    base = factory.getbasetemp()
    return base if worker_id == "master" else base.parent


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (across the xdist workers' processes)."""
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The site of the bounded catalogue, built once per test session: under xdist the
    workers share one build in the session's common temporary folder."""
    from rewire_site.build import build_site

    shared = _shared_temp(tmp_path_factory, worker_id)
    project = shared / "browser-catalogue"
    site = project / "site"
    done, failed = shared / "browser-catalogue.built", shared / "browser-catalogue.failed"
    with _locked(shared / "browser-catalogue.lock"):  # the others wait while one builds
        if failed.is_file():  # once is enough: the first test to ask shows the error
            pytest.fail(f"the bounded site did not build: {failed.read_text()}", pytrace=False)
        if not done.is_file():
            try:
                count = copy_bounded_project(ROOT, project)
                build_site(project, site, release_date=RELEASE_DATE)
            except BaseException as error:
                failed.write_text(f"{type(error).__name__}: {error}"[:2000], encoding="utf-8")
                raise
            done.write_text(f"{count} records\n", encoding="utf-8")
    return site


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """Base URL (with trailing slash) of the built site served on 127.0.0.1."""
    handler = functools.partial(_Quiet, directory=str(built_site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _context(browser: Any, **options: Any) -> Any:
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.route(  # nothing may leave loopback
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(("http://127.0.0.1", "data:", "about:"))
            else route.abort()
        ),
    )
    return context


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = _context(browser, viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(scope="session")
def session_page(browser: Any) -> Iterator[Any]:
    """One 1280 px page for the whole session, for fixtures that load many pages once."""
    context = _context(browser, viewport={"width": 1280, "height": 900})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    context = _context(
        browser, viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True
    )
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def nojs_page(browser: Any) -> Iterator[Any]:
    context = _context(browser, viewport={"width": 1280, "height": 900}, java_script_enabled=False)
    try:
        yield context.new_page()
    finally:
        context.close()


SHOT_HEIGHT = 5_000
"""Screenshots stop this many CSS pixels down: a full-page shot of the 60,000 px protocol
page at phone width took about 20 s of Chromium's time, and its first screens show what a
reviewer looks for."""


@pytest.fixture(scope="session")
def shot(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Callable[[Any, str], Path]:
    """`shot(page, name)` keeps a screenshot of the page, whole or its first SHOT_HEIGHT
    pixels, as a test artifact. The folder is emptied once per session (not by each
    xdist worker, which would delete the other's screenshots)."""
    shared = _shared_temp(tmp_path_factory, worker_id)
    with _locked(shared / "screenshots.lock"):
        cleared = shared / "screenshots.cleared"
        if not cleared.is_file():
            if SCREENSHOTS.is_dir():
                shutil.rmtree(SCREENSHOTS)
            cleared.touch()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        height = page.evaluate("document.documentElement.scrollHeight")
        if height <= SHOT_HEIGHT:
            page.screenshot(path=str(path), full_page=True, timeout=60_000)
            return path
        size = page.viewport_size
        page.set_viewport_size({"width": size["width"], "height": SHOT_HEIGHT})
        try:
            page.screenshot(path=str(path), timeout=60_000)
        finally:
            page.set_viewport_size(size)
        return path

    return take


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every `browser` test, saying why, when Chromium or Playwright is missing."""
    reason = browser_missing()
    if reason is None:
        return
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.skip(reason=f"browser test: {reason}"))
