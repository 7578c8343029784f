"""The render stage: page contexts in, HTML out. One module per job:

- `contexts`: every page's typed context and the section views pages share, each field
  described (what a template may read; `tests/test_render_contract.py` checks it);
  `page_header` fills the header fields every page has;
- one module per page family, each building its context from the records and the
  derived facts: `evaluation`, `configuration`, `dataset`, `family`, `source`,
  `question`, `protocol` (the protocol page and its sorted views), `index` (home,
  search, downloads, filter lists); the chooser pages live in `chooser/`;
- `parts`: what several record pages share (`common_fields`: header, heading,
  evidence, sources, metadata, related records; `value_fact`, `results_of`,
  `evaluation_list`, `link_to`); `sections`: display views of the shared sections
  (comparison table, results table, evidence) with their links and ids; `metadata`:
  the technical-metadata section;
- `urls`: where every page and file lives, and relative links (the one place);
- `search`: the offline search index; `downloads`: the gzip CSVs and the JSON API;
- `plan`: the site plan (`SiteFacts`, search entries, filter members, the release) and
  the page jobs (`SitePlan.jobs`, `SitePlan.make`): a new page family plugs in there;
- `environment`: the one Jinja2 environment (autoescape, StrictUndefined, filters);
- `pool`: page jobs rendered by a pool of forked workers and written through the
  build's one writer (`write.OutputWriter`).
"""

from __future__ import annotations

from .environment import (
    Renderer,
    fast_escape,
    make_environment,
    templates_dir,
)
from .pool import DataFile, Job, MakePages, RenderStats, render_jobs

__all__ = [
    "DataFile",
    "Job",
    "MakePages",
    "RenderStats",
    "Renderer",
    "fast_escape",
    "make_environment",
    "render_jobs",
    "templates_dir",
]
