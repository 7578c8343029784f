"""sitemap.xml: every record page, the home, findings, search and downloads pages."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from ...link import Catalogue
from ..urls import DOWNLOADS, FINDINGS, HOME, SEARCH, page_of


def page_url(site_url: str, path: str) -> str:
    """Absolute URL of a page; 'x/index.html' is served as 'x/'."""
    if path.endswith("index.html"):
        path = path[: -len("index.html")]
    return site_url.rstrip("/") + "/" + path


def sitemap_xml(
    catalogue: Catalogue, site_url: str, lastmod: str, extra: Iterable[str] = ()
) -> bytes:
    """Every record page, the home, findings, search and downloads pages, then `extra` pages."""
    return _document("".join(_url(site_url, p, lastmod) for p in _paths(catalogue, extra)))


def _paths(catalogue: Catalogue, extra: Iterable[str]) -> list[str]:
    """The pages a sitemap lists, in its order."""
    records = sorted(page_of(r) for r in catalogue.by_id.values())
    pages = sorted(p for p in extra if p.endswith(".html"))  # a job's CSV is no page
    return [HOME, FINDINGS, SEARCH, DOWNLOADS, *records, *pages]


def _url(site_url: str, path: str, lastmod: str) -> str:
    return (
        f"  <url><loc>{escape(page_url(site_url, path))}</loc><lastmod>{lastmod}</lastmod></url>\n"
    )


def _document(urls: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{urls}</urlset>\n"
    ).encode()
