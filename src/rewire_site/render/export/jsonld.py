"""schema.org `Dataset` JSON-LD for protocol and evaluation pages (what search engines'
dataset search reads). `with_json_ld` fills a page context's `json_ld` field; every other
page keeps it empty."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TypeVar

from markupsafe import Markup

from ...link import Catalogue
from ...models import Evaluation, Protocol, RecordBase, Source
from ..urls import api_path, kind_of, page_of
from .sitemap import page_url

P = TypeVar("P")


def _sources(record: RecordBase, catalogue: Catalogue) -> list[Source]:
    """The sources a record cites, directly or in its results, in order, once each."""
    ids: list[str] = [c.source for c in record.citations]
    if isinstance(record, Evaluation):
        ids += [r.citation.source for r in record.results if r.citation is not None]
    seen: list[Source] = []
    for source_id in ids:
        found = catalogue.by_id.get(source_id)
        if isinstance(found, Source) and found not in seen:
            seen.append(found)
    return seen


def _common(record: RecordBase, catalogue: Catalogue, site_url: str) -> dict[str, Any]:
    sources = _sources(record, catalogue)
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Dataset",
        "@id": page_url(site_url, page_of(record)),
        "name": record.title,
        "description": record.summary,
        "url": page_url(site_url, page_of(record)),
        "identifier": record.id,
        "isAccessibleForFree": True,
        "includedInDataCatalog": {"@type": "DataCatalog", "name": "Rewire", "url": site_url},
        "distribution": [
            {
                "@type": "DataDownload",
                "encodingFormat": "application/json",
                "contentUrl": site_url.rstrip("/") + "/" + api_path(kind_of(record), record.id),
            }
        ],
    }
    if sources:
        data["isBasedOn"] = [s.url for s in sources]
        data["citation"] = [s.short_citation for s in sources]
    if record.added is not None:
        data["dateCreated"] = record.added.isoformat()
    return data


def protocol_json_ld(protocol: Protocol, catalogue: Catalogue, site_url: str) -> dict[str, Any]:
    data = _common(protocol, catalogue, site_url)
    data["measurementTechnique"] = protocol.measurement
    data["variableMeasured"] = [
        {
            "@type": "PropertyValue",
            "name": column.label,
            "unitText": (column.metric or protocol.metric).unit,
        }
        for column in protocol.columns
    ]
    return data


def evaluation_json_ld(
    evaluation: Evaluation, catalogue: Catalogue, site_url: str
) -> dict[str, Any]:
    data = _common(evaluation, catalogue, site_url)
    protocol = catalogue.by_id.get(evaluation.protocol)
    labels = {c.id: c.label for c in protocol.columns} if isinstance(protocol, Protocol) else {}
    data["variableMeasured"] = [
        {
            "@type": "PropertyValue",
            "name": labels.get(r.column, r.column),
            **({"value": r.value} if r.value is not None else {}),
            **({"unitText": r.unit} if r.unit else {}),
        }
        for r in evaluation.results
    ]
    return data


def script_text(data: dict[str, Any]) -> Markup:
    """JSON for a <script type="application/ld+json"> element: `<`, `>` and `&` are
    written as \\u escapes so no text in a record can close the script."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)  # escaped above: JSON inside a script element


def with_json_ld(page: P, record: RecordBase, catalogue: Catalogue, site_url: str) -> P:
    """The page with its `json_ld` field set for a protocol or an evaluation."""
    if isinstance(record, Protocol):
        data = protocol_json_ld(record, catalogue, site_url)
    elif isinstance(record, Evaluation):
        data = evaluation_json_ld(record, catalogue, site_url)
    else:
        return page
    return dataclasses.replace(page, json_ld=script_text(data))  # type: ignore[type-var]
