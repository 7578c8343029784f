"""Page sizes and heights of a built site: full-page screenshots at 1280 and 375 px of
the pages a researcher lands on first (home, one leaderboard, one model page, the fits
page), and a table of each page's raw size in bytes and its height in screens.

    rewire build --out /tmp/site
    python benchmarks/page_shots.py /tmp/site shots/            # the four pages
    python benchmarks/page_shots.py /tmp/site shots/ --page tasks/x/index.html

A screen is the viewport's height: 800 px at 1280 px wide, 812 px at 375 px (an iPhone's
CSS viewport). The heights are document.documentElement.scrollHeight over the screen
height; `sizes.txt` in the output folder holds the same table that is printed. Needs
Playwright and Debian's Chromium (as tests/browser/ does; no browser download).
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PAGES = {
    "home": "index.html",
    "leaderboard": "tasks/feng-2024-dataset-human-worm/index.html",
    "model": "families/gfm-guide-20261014-family-nucleotide-transformer/index.html",
    "fits": "fits/index.html",
}
SCREENS = {1280: 800, 375: 812}
"""Viewport width -> height of one screen, in CSS pixels."""
CHROMIUM = os.environ.get("REWIRE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def measure(site: Path, out: Path, pages: dict[str, str]) -> list[str]:
    """Screenshot every page at each width into `out`; return the table's lines."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    lines = [f"{'page':<12} {'bytes':>9} {'screens@1280':>13} {'screens@375':>12}  path"]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            for name, path in pages.items():
                heights = {}
                for width, screen in SCREENS.items():
                    context = browser.new_context(viewport={"width": width, "height": screen})
                    page = context.new_page()
                    page.goto(base + path)
                    height = page.evaluate("document.documentElement.scrollHeight")
                    heights[width] = height / screen
                    page.screenshot(
                        path=str(out / f"{name}-{width}.png"), full_page=True, timeout=120_000
                    )
                    context.close()
                size = (site / path).stat().st_size
                lines.append(
                    f"{name:<12} {size:>9} {heights[1280]:>13.1f} {heights[375]:>12.1f}  {path}"
                )
            browser.close()
    finally:
        server.shutdown()
    largest = max(site.rglob("*.html"), key=lambda p: p.stat().st_size)
    lines.append(f"largest page: {largest.relative_to(site)} {largest.stat().st_size} bytes")
    (out / "sizes.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", type=Path, help="a built site folder")
    parser.add_argument("out", type=Path, help="folder for the PNGs and sizes.txt")
    parser.add_argument("--page", action="append", default=[], help="a page path instead")
    args = parser.parse_args()
    pages = {Path(p).parent.name or "home": p for p in args.page} or PAGES
    for line in measure(args.site, args.out, pages):
        print(line)


if __name__ == "__main__":
    main()
