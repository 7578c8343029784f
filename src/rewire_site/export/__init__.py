"""Exports for tools outside Rewire: Every Eval Ever JSON, BibTeX and CSL-JSON
citations, and a sitemap. `export_files` gives every file with its site path."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

from ..chooser.pages import chooser_pages
from ..link import Catalogue
from ..render.downloads import Memo, gzip_bytes, kept_segments
from .citations import citation_files
from .eee import eee_jsonl
from .sitemap import KeptSitemap, sitemap_xml

SITE_URL = os.environ.get("REWIRE_SITE_URL", "https://rewire-catalogue.github.io/rewire/")
"""Absolute base URL of the published site (sitemap and citations need absolute URLs)."""

EEE_DOWNLOAD = "downloads/every-eval-ever.jsonl.gz"
SITEMAP = "sitemap.xml"


def sitemap_file(
    catalogue: Catalogue,
    release_id: str,
    chooser_paths: Iterable[str],
    kept: KeptSitemap | None = None,
) -> bytes:
    """sitemap.xml: every record page, the home, search and downloads pages, and the
    chooser pages at `chooser_paths` (`kept`: its lines kept between edits, serve)."""
    make = sitemap_xml if kept is None else kept.file
    return make(catalogue, SITE_URL, release_id[:10], chooser_paths)


def export_files(
    catalogue: Catalogue, release_id: str, *, sitemap: bool = True, memo: Memo | None = None
) -> dict[str, bytes]:
    """Every export file by site path. `sitemap=False` leaves out the sitemap (the build
    writes it after rendering, from the chooser pages it wrote: `sitemap_file`); `memo`:
    per-evaluation pieces, the citation files and the gzip's compressed segments kept
    between edits (`rewire serve`)."""
    eee = eee_jsonl(catalogue, memo)
    files = {EEE_DOWNLOAD: gzip_bytes(eee, kept_segments(memo, EEE_DOWNLOAD))}
    if sitemap:
        paths = [p.path for p in chooser_pages(catalogue, {}, release_id)]
        files[SITEMAP] = sitemap_file(catalogue, release_id, paths)
    cite = functools.partial(citation_files, catalogue, release_id, SITE_URL)
    # serve: kept while no source changes (the piece read the kind scan of sources only)
    files.update(cite() if memo is None else memo(("citations", release_id), cite))
    return files
