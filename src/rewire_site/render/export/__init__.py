"""Exports for tools outside Rewire: Every Eval Ever JSON, BibTeX and CSL-JSON
citations, and a sitemap. `export_files` gives every file with its site path."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from ...link import Catalogue
from ..chooser.pages import chooser_pages
from ..downloads import gzip_bytes
from .citations import citation_files
from .eee import eee_jsonl
from .sitemap import sitemap_xml

SITE_URL = os.environ.get("REWIRE_SITE_URL", "https://rewire-catalogue.github.io/rewire/")
"""Absolute base URL of the published site (sitemap and citations need absolute URLs)."""

EEE_DOWNLOAD = "downloads/every-eval-ever.jsonl.gz"
SITEMAP = "sitemap.xml"


def sitemap_file(catalogue: Catalogue, release_id: str, chooser_paths: Iterable[str]) -> bytes:
    """sitemap.xml: every record page, the home, search and downloads pages, and the
    chooser pages at `chooser_paths`."""
    return sitemap_xml(catalogue, SITE_URL, release_id[:10], chooser_paths)


def export_files(
    catalogue: Catalogue,
    release_id: str,
    *,
    sitemap: bool = True,
    lines: Mapping[str, str | None] | None = None,
) -> dict[str, bytes]:
    """Every export file by site path. `sitemap=False` leaves out the sitemap (the build
    writes it after rendering, from the chooser pages it wrote: `sitemap_file`);
    `lines`: each evaluation's Every Eval Ever line (`eee.eee_lines`), when computed."""
    files = {EEE_DOWNLOAD: gzip_bytes(eee_jsonl(catalogue, lines))}
    if sitemap:
        paths = [p.path for p in chooser_pages(catalogue, {}, release_id)]
        files[SITEMAP] = sitemap_file(catalogue, release_id, paths)
    files.update(citation_files(catalogue, release_id, SITE_URL))
    return files
