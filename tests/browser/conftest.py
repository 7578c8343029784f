"""Fixtures of the browser tests: a site built once per session from the real `records/`,
served over loopback by the standard library, and Debian's Chromium driven by Playwright.

Browser tests carry the `browser` marker and are skipped, with the reason, when Chromium
(`REWIRE_CHROMIUM`, else `chromium` on PATH, else `/usr/bin/chromium`) or the `playwright`
package is missing. The browser is never
downloaded (`playwright install` is not used): install it with `apt-get install -y chromium`.
Screenshots are kept under `tests/artifacts/screenshots/` (gitignored; CI uploads them).
"""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of the real records, built once into a temporary folder."""
    from rewire_site.build import build_site

    out = tmp_path_factory.mktemp("browser") / "site"
    build_site(ROOT, out, release_date=RELEASE_DATE)
    return out


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


@pytest.fixture(scope="session")
def shot() -> Callable[[Any, str], Path]:
    """`shot(page, name)` keeps a full-page screenshot as a test artifact."""
    if SCREENSHOTS.is_dir():
        shutil.rmtree(SCREENSHOTS)
    SCREENSHOTS.mkdir(parents=True)

    def take(page: Any, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True, timeout=60_000)
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
