"""Exports for tools outside Rewire: Every Eval Ever JSON, BibTeX and CSL-JSON
citations, and a sitemap. `export_files` gives every file with its site path."""

from __future__ import annotations

import os

from ..chooser.pages import chooser_pages
from ..link import Catalogue
from ..render.downloads import gzip_bytes
from .citations import citation_files
from .eee import eee_jsonl
from .sitemap import sitemap_xml

SITE_URL = os.environ.get("REWIRE_SITE_URL", "https://rewire-catalogue.github.io/rewire/")
"""Absolute base URL of the published site (sitemap and citations need absolute URLs)."""

EEE_DOWNLOAD = "downloads/every-eval-ever.jsonl.gz"
SITEMAP = "sitemap.xml"


def export_files(catalogue: Catalogue, release_id: str) -> dict[str, bytes]:
    files = {
        EEE_DOWNLOAD: gzip_bytes(eee_jsonl(catalogue)),
        SITEMAP: sitemap_xml(
            catalogue,
            SITE_URL,
            release_id[:10],
            [p.path for p in chooser_pages(catalogue, {}, release_id)],
        ),
    }
    files.update(citation_files(catalogue, release_id, SITE_URL))
    return files
