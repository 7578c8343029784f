"""BibTeX and CSL-JSON for every source record and for the release itself."""

from __future__ import annotations

import json
import re
from typing import Any

from ...link import Catalogue
from ...models import Source

_BIB_TYPE = {
    "journal_paper": "article",
    "conference_paper": "inproceedings",
    "preprint": "misc",
}
_CSL_TYPE = {
    "journal_paper": "article-journal",
    "conference_paper": "paper-conference",
    "preprint": "article",
    "repository_file": "software",
    "configuration_file": "software",
    "model_card": "software",
    "dataset_card": "dataset",
}
_BIB_ESCAPE = re.compile(r"([{}\\&%$#_~^])")


def _bib(text: str) -> str:
    return _BIB_ESCAPE.sub(r"\\\1", text)


def _date_parts(published: str | None) -> list[list[int]] | None:
    if not published:
        return None
    return [[int(p) for p in str(published).split("-")]]


def _source_kind(source: Source) -> str:
    kind = getattr(source, "source_kind", None)
    return str(getattr(kind, "value", kind or "other"))


def source_bibtex(source: Source) -> str:
    kind = _source_kind(source)
    fields: list[tuple[str, str]] = [("title", source.title)]
    if source.authors:
        fields.append(("author", " and ".join(source.authors)))
    published = getattr(source, "published", None)
    if published:
        fields.append(("year", str(published)[:4]))
        if len(str(published)) >= 7:
            fields.append(("month", str(published)[5:7]))
    if kind == "journal_paper":
        fields.append(("journal", source.venue))
    elif kind == "conference_paper":
        fields.append(("booktitle", source.venue))
    else:
        fields.append(("howpublished", source.venue))
    fields.append(("url", source.url))
    note = [source.version]
    if source.sha256:
        note.append(f"SHA-256 {source.sha256}")
    fields.append(("note", "; ".join(note)))
    body = ",\n".join(f"  {name} = {{{_bib(value)}}}" for name, value in fields)
    return f"@{_BIB_TYPE.get(kind, 'misc')}{{{source.id},\n{body}\n}}\n"


def source_csl(source: Source) -> dict[str, Any]:
    kind = _source_kind(source)
    item: dict[str, Any] = {
        "id": source.id,
        "type": _CSL_TYPE.get(kind, "document"),
        "title": source.title,
        "container-title": source.venue,
        "URL": source.url,
        "version": source.version,
        "author": [{"literal": a} for a in source.authors],
    }
    parts = _date_parts(getattr(source, "published", None))
    if parts:
        item["issued"] = {"date-parts": parts}
    if source.sha256:
        item["note"] = f"SHA-256 {source.sha256}"
    return item


def release_entries(release_id: str, site_url: str) -> tuple[str, dict[str, Any]]:
    year, month, day = (int(p) for p in release_id.split("-")[:3])
    title = f"Rewire: evidence records for genomic foundation models, release {release_id}"
    bib = (
        f"@misc{{rewire-{release_id},\n"
        f"  title = {{{_bib(title)}}},\n"
        f"  author = {{{{Rewire contributors}}}},\n"
        f"  year = {{{year}}},\n"
        f"  month = {{{month:02d}}},\n"
        f"  url = {{{site_url}}},\n"
        f"  note = {{Release {_bib(release_id)}}}\n}}\n"
    )
    csl = {
        "id": f"rewire-{release_id}",
        "type": "dataset",
        "title": title,
        "author": [{"literal": "Rewire contributors"}],
        "issued": {"date-parts": [[year, month, day]]},
        "URL": site_url,
        "version": release_id,
    }
    return bib, csl


def citation_files(catalogue: Catalogue, release_id: str, site_url: str) -> dict[str, bytes]:
    sources = catalogue.of_kind(Source)  # sorted by id; one kind scan (serve tracks it)
    release_bib, release_csl = release_entries(release_id, site_url)
    bib = release_bib + "".join("\n" + source_bibtex(s) for s in sources)
    csl = [release_csl, *(source_csl(s) for s in sources)]
    return {
        "downloads/citations.bib": bib.encode("utf-8"),
        "downloads/citations.csl.json": (
            json.dumps(csl, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        ).encode("utf-8"),
    }
