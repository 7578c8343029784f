"""Synthetic result tables for benchmarks and scale tests (issue 24): as many published
values as asked, as result tables (YAML spec + CSV rows under `records/tables/`), with
the sources, protocol, datasets and model families their labels map to.

`add_result_tables(root, values, seed)` adds them to a catalogue root (usually one that
`synth.generate_catalogue` wrote, so ordinary records sit beside them). Every table has
`MODELS` models x its tasks x `SEEDS` seeds, each row `len(METRICS)` values; the tables
split the tasks so that together they hold at least `values` values. Some labels map to
nothing (listed as unmapped), some only to a family (checkpoint not pinned). Every value
is made up and every title says so.

    python -m rewire_site.synth OUT_DIR --evaluations 200 --table-values 100000
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import random
from pathlib import Path
from typing import Any

import yaml

from .config import RECORDS_DIR

_Dumper: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

TABLES = 10
MODELS = 40
SEEDS = 3
TASKS = 100
METRICS = (
    ("mcc", "MCC", -1, 1),
    ("accuracy", "Accuracy", 0, 1),
    ("f1", "F1", 0, 1),
)
PROTOCOL = "synth-table-protocol"
TABLES_DIR = "tables"


def _dump(path: Path, kind: str, record: dict[str, Any], schemas: str) -> None:
    text = yaml.dump(record, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    modeline = f"# yaml-language-server: $schema={schemas}/{kind}.schema.json\n"
    path.write_text(modeline + text, encoding="utf-8")


def _base(record_id: str, kind: str, title: str) -> dict[str, Any]:
    return {
        "id": record_id,
        "kind": kind,
        "title": f"{title} (synthetic)",
        "summary": f"Synthetic {kind.replace('_', ' ')} for scale tests; its values are made up.",
        "areas": ["dna-genomes"],
    }


def _scope(table: int) -> str:
    return f"synth-bench-{table:02d}"


def _model_label(model: int) -> str:
    return f"SynthLM-{model:02d}"


def _task_label(task: int) -> str:
    return f"task_{task:03d}"


class _Tables:
    def __init__(self, root: Path, values: int, seed: int) -> None:
        self.root = root
        self.records = root / RECORDS_DIR
        self.rng = random.Random(seed)
        per_task = MODELS * SEEDS * len(METRICS)
        self.tasks_per_table = min(TASKS, math.ceil(values / (TABLES * per_task)))
        self.written = 0
        self.values = 0

    def tasks_of(self, table: int) -> list[int]:
        return [(table * 7 + k) % TASKS for k in range(self.tasks_per_table)]

    def write(self, kind: str, record: dict[str, Any], folder: Path | None = None) -> None:
        where = folder or self.records
        schemas = "../../schemas" if folder is not None else "../schemas"
        _dump(where / f"{record['id']}.yaml", kind, record, schemas)
        self.written += 1

    def sources(self) -> None:
        for t in range(TABLES):
            record_id = f"synth-table-source-{t:02d}"
            commit = hashlib.sha1(record_id.encode()).hexdigest()
            path = f"results/table-{t:02d}.json"
            record = _base(record_id, "source", f"Synthetic results file {t}")
            record.update(
                source_kind="repository_file",
                short_citation=f"Synthetic bench {t}",
                venue="GitHub",
                published="2026-01-15",
                version=f"commit {commit}",
                url=f"https://github.com/example/synth-bench/blob/{commit}/{path}",
                repository="https://github.com/example/synth-bench",
                path=path,
                revision=commit,
                licence="MIT",
                retrieval_url=f"https://raw.githubusercontent.com/example/synth-bench/{commit}/{path}",
                retrieved_at="2026-12-01T10:00:00Z",
                sha256=hashlib.sha256(path.encode()).hexdigest(),
                size_bytes=100_000 + t,
                hash_scope="file bytes at the commit",
                independence="Synthetic: nobody developed these models.",
            )
            self.write("source", record)

    def protocol(self) -> None:
        record = _base(PROTOCOL, "protocol", "Synthetic benchmark, full fine-tuning")
        first, *rest = METRICS
        record.update(
            measurement="Fine-tune the whole model on each task; score the test split.",
            metric={
                "id": first[0],
                "label": first[1],
                "unit": "fraction",
                "direction": "higher",
                "scale": "fraction",
                "minimum": first[2],
                "maximum": first[3],
            },
            columns=[
                {"id": first[0], "label": first[1]},
                *(
                    {
                        "id": m,
                        "label": label,
                        "metric": {
                            "id": m,
                            "label": label,
                            "unit": "fraction",
                            "direction": "higher",
                            "scale": "fraction",
                            "minimum": low,
                            "maximum": high,
                        },
                    }
                    for m, label, low, high in rest
                ),
            ],
            datasets=[f"synth-task-{k:03d}" for k in range(TASKS)],
            version="1",
            source_locator="README",
            metric_definition="scikit-learn scores on the test split",
            hardware=None,
            replicates=SEEDS,
            baselines=None,
            recipe=None,
            missing_metadata={
                "hardware": {"reason": "unreported"},
                "baselines": {"reason": "unknown"},
                "recipe": {"reason": "unknown"},
            },
            hardware_dependence={"depends": False, "reason": "A score does not depend on the GPU."},
        )
        self.write("protocol", record)

    def datasets(self) -> None:
        scopes: dict[int, list[int]] = {k: [] for k in range(TASKS)}
        for t in range(TABLES):
            for k in self.tasks_of(t):
                scopes[k].append(t)
        for k in range(TASKS):
            record = _base(f"synth-task-{k:03d}", "dataset", f"Synthetic task {k}")
            record.update(
                description="Labelled synthetic sequences.",
                synthetic=True,
                version="1",
                generator="uniform over ACGT",
                seed=k,
                access=f"https://example.org/synth/task-{k}",
                licence="CC-BY-4.0",
                # every seventh task's label is left unmapped in the first table that has it
                labels=[
                    {"scope": _scope(t), "label": _task_label(k)}
                    for t in scopes[k]
                    if not (k % 7 == 0 and t == min(scopes[k]))
                ],
            )
            self.write("dataset", record)

    def families(self) -> None:
        for m in range(MODELS - 2):  # the last two models are unmapped everywhere
            labels = [{"scope": _scope(t), "label": _model_label(m)} for t in range(TABLES)]
            record = _base(f"synth-table-family-{m:02d}", "model_family", f"Synthetic LM {m}")
            pinned = m % 5 != 0  # every fifth model is known only at family level
            record.update(
                name=f"SynthLM {m}",
                developers=[f"Lab {m}"],
                papers=[f"synth-table-source-{m % TABLES:02d}"],
                architecture="BERT encoder",
                tokenisation="non-overlapping 6-mers",
                checkpoints=[
                    {"name": f"synth/synthlm-{m:02d}", "parameters": "100M"}
                    | ({"labels": labels} if pinned else {})
                ],
            )
            if not pinned:
                record["labels"] = labels
            self.write("model_family", record)

    def table(self, t: int) -> None:
        folder = self.records / TABLES_DIR
        folder.mkdir(exist_ok=True)
        record_id = f"synth-table-{t:02d}"
        record = _base(record_id, "result_table", f"Synthetic benchmark table {t}")
        record.update(
            rows=f"{record_id}.csv",
            sources=[f"synth-table-source-{t:02d}"],
            labels=_scope(t),
            protocol=PROTOCOL,
            adaptation="fine_tuned",
            origin="independent_paper",
            columns={
                "model": "model",
                "task": "task",
                "settings": [{"column": "seed", "name": "seed"}],
                "metrics": [
                    {
                        "column": m,
                        "metric": m,
                        "label": label,
                        "scale": "fraction",
                        "direction": "higher",
                        "minimum": low,
                        "maximum": high,
                        "source_key": label,
                    }
                    for m, label, low, high in METRICS
                ],
                "locator": "locator",
            },
            comparison={
                "split": "test",
                "population": "every test sequence",
                "inputs": "the sequence",
                "adaptation": "full fine-tuning",
                "aggregation": "one score over the test split",
                "budget": None,
                "dataset_version": "1",
                "metric_implementation": "scikit-learn",
            },
            missing_metadata={"comparison.budget": {"reason": "unreported"}},
        )
        self.write("result_table", record, folder)
        path = f"results/table-{t:02d}.json"
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["model", "task", "seed", *(m for m, *_ in METRICS), "locator"])
        for m in range(MODELS):
            for k in sorted(self.tasks_of(t)):
                for s in range(1, SEEDS + 1):
                    cells = [
                        f"{self.rng.uniform(max(low, 0), high):.4f}" for _, _, low, high in METRICS
                    ]
                    self.values += len(cells)
                    where = f'{path}: {_model_label(m)}["{_task_label(k)}"][{s}]'
                    writer.writerow([_model_label(m), _task_label(k), s, *cells, where])
        (folder / f"{record_id}.csv").write_text(buffer.getvalue(), encoding="utf-8")


def add_result_tables(root: Path, values: int, seed: int = 0) -> tuple[int, int]:
    """Add result tables holding at least `values` values (and the records their labels
    and sources need) to the catalogue under `root`; (records written, values)."""
    maker = _Tables(root, values, seed)
    maker.records.mkdir(parents=True, exist_ok=True)
    maker.sources()
    maker.protocol()
    maker.datasets()
    maker.families()
    for t in range(TABLES):
        maker.table(t)
    return maker.written, maker.values


__all__ = ["add_result_tables"]
