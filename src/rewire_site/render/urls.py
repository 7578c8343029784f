"""Where each page lives in the built site, and relative links between pages.

Every link is relative (the site works from a sub-path such as GitHub Pages' /<repo>/ and
from a local folder) and names `index.html` explicitly (it works from file:// too).
"""

from __future__ import annotations

from ..models import RecordBase
from ..models import kind_of as kind_of  # the one record type -> kind map

KIND_DIRS: dict[str, str] = {
    "protocol": "protocols",
    "evaluation": "evaluations",
    "configuration": "configurations",
    "dataset": "datasets",
    "source": "sources",
    "model_family": "families",
    "question": "questions",
    "result_table": "tables",
}
"""Record kind -> folder of its pages under the site root."""

KIND_LABELS: dict[str, str] = {
    "protocol": "Protocol",
    "evaluation": "Evaluation",
    "configuration": "Configuration",
    "dataset": "Dataset",
    "source": "Source",
    "model_family": "Model family",
    "question": "Question",
    "result_table": "Result table",
}

HOME = "index.html"
SEARCH = "search/index.html"
SEARCH_INDEX = "search/index.json"


def search_part_path(part: int) -> str:
    """Part `part` (1-based) of the search page's list: part 1 is the search page itself."""
    return SEARCH if part == 1 else f"search/part-{part}/index.html"


DOWNLOADS = "downloads/index.html"
FINDINGS = "findings/index.html"
FITS = "fits/index.html"
CHOOSER = "chooser/index.html"


def record_path(kind: str, record_id: str) -> str:
    """Path of a record's page from the site root, e.g. 'protocols/<id>/index.html'."""
    return f"{KIND_DIRS[kind]}/{record_id}/index.html"


def sorted_path(protocol_id: str, column_id: str) -> str:
    """Path of a protocol's comparison table pre-sorted by one column (no-JS sorting)."""
    return f"protocols/{protocol_id}/sorted/{column_id}/index.html"


def filter_path(facet: str, value_slug: str) -> str:
    """Path of the pre-rendered list of evaluations matching one filter value."""
    return f"filters/{facet}/{value_slug}/index.html"


def api_path(kind: str, record_id: str) -> str:
    """Path of a record's JSON file (the static API)."""
    return f"api/{kind}/{record_id}.json"


def root_of(page_path: str) -> str:
    """Relative prefix from a page back to the site root: '' or '../../'."""
    return "../" * page_path.count("/")


def page_of(record: RecordBase) -> str:
    """Path of a record's page from the site root."""
    return record_path(kind_of(record), record.id)
