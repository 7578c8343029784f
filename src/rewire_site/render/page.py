"""The header every page context has (`Page`, filled by `page_header`) and `Link`: the
base of the page contexts in `contexts.py` and of the page families (`chooser/`, `fits/`),
which import it from here so that no page family imports `contexts.py` back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from markupsafe import Markup

from ..release import is_preview
from .urls import root_of


class PageHeader(TypedDict):
    """The fields of `Page`, as keyword arguments of a page context."""

    template: str
    path: str
    root: str
    title: str
    head_title: str
    description: str
    release_id: str
    preview: bool
    nav: str


def page_header(
    template: str,
    path: str,
    title: str,
    description: str,
    release_id: str,
    *,
    nav: str = "",
    head_title: str = "",
) -> PageHeader:
    """The header fields of a page at `path` (its `root` follows from the path): every
    page context starts with `**page_header(...)`."""
    return PageHeader(
        template=template,
        path=path,
        root=root_of(path),
        title=title,
        head_title=head_title,
        description=description,
        release_id=release_id,
        preview=is_preview(release_id),
        nav=nav,
    )


@dataclass(frozen=True)
class Page:
    """The header fields every page has (`page_header` fills them)."""

    template: str
    """The template that renders the page, e.g. 'evaluation.html'."""
    path: str
    """Output path under the site root, e.g. 'protocols/<id>/index.html'."""
    root: str
    """Relative prefix back to the site root: '' or '../../'."""
    title: str
    """The page's heading (and <title>, unless `head_title` is set)."""
    description: str
    """The page's meta description (plain text)."""
    release_id: str
    """The release the page belongs to (shown in the footer)."""
    nav: str
    """Navigation item marked current: 'home', 'search', 'chooser', 'models', 'downloads'
    or ''."""
    head_title: str = field(default="", kw_only=True)
    """The page's <title> (before ' · Rewire') when it is not `title`: the title and the
    record id, for a title several records share. Empty: `title`."""
    json_ld: Markup = field(default=Markup(""), kw_only=True)
    """schema.org JSON-LD for the page's head (protocol and evaluation pages; see
    export/jsonld.py); empty on other pages."""
    preview: bool = field(kw_only=True)
    """True on a preview build (`rewire serve`, `rewire build --preview`): the footer
    says the release id is not a release's (`release.is_preview` of `release_id`)."""


@dataclass(frozen=True)
class Link:
    """A link; `href` is relative to the site root (templates prefix `page.root`)."""

    text: str
    href: str
