"""The task identity of Lindsey et al.'s tokenization study: which dataset record each of
the study's task labels names, and how those records link to other sources' datasets.

The study's files name a task in three ways (all kept as labels of one dataset record, in
the label scope `lindsey-2025`):
- the attention-model tables give a benchmark column and a task column; their label here is
  `<benchmark>/<task>` (e.g. `GUE/tf_0`), because the same task name is used under two
  benchmarks (`NTv1/enhancers` and `NTv2/enhancers` are different task sets);
- the state-space tables give the task alone: the best-replicate table uses the
  attention models' names (`tf_0`), the sweep table the names before the renaming that
  `ss_scripts/find_best_hyperparameters_ss.py` does (`human_tf_0`, `virus_covid`, ...);
  the renaming is cited as the evidence that the two names are one task;
- the benchmark of a state-space task is the one `results_scripts/
  create_results_latex_tables.py` assigns to it (`task_benchmark_map`).

Links to other sources' datasets are `related` only: the study's files state neither the
data files nor the split sizes of any task, so no `same_task` merge has its evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "lindsey-2025"
GB = "genomic-benchmarks-dataset-"
FENG = "feng-2024-dataset-"

BENCHMARKS = {
    "GB": "Genomic Benchmarks",
    "GUE": "GUE",
    "NTv2": "revised Nucleotide Transformer tasks",
    "NTv1": "original Nucleotide Transformer tasks",
}
"""The study's benchmark codes, named as create_results_latex_tables.py names them
(`benchmark_names`: Genomic Benchmark, GUE, Nucleotide Transformer (revised)); NTv1 is
the attention tables' own code for the original task set."""


@dataclass(frozen=True)
class Task:
    benchmark: str | None
    """GB, GUE, NTv2, NTv1; None where no file read assigns one."""
    name: str
    """The task as the best-replicate tables print it."""
    sweep_name: str | None = None
    """The state-space sweep table's name where it differs (renamed by the authors)."""
    related: tuple[tuple[str, str], ...] = ()
    """(dataset id, note) of other sources' datasets of the same name."""

    @property
    def key(self) -> str:
        return f"{(self.benchmark or 'unassigned').lower()}-{self.name}"

    @property
    def attention_label(self) -> str:
        return f"{self.benchmark}/{self.name}"


def _gb(name: str, gb_name: str, sweep: str | None = None) -> Task:
    note = (
        f"Lindsey et al. list `{name}` under the Genomic Benchmarks (GB); Genomic "
        f"Benchmarks' dataset `{gb_name}`. The study's files state neither the data files "
        "nor the split, so the same files and split are not shown: kept apart."
    )
    return Task("GB", name, sweep, ((f"{GB}{gb_name.replace('_', '-')}", note),))


def _gue(name: str, sweep: str | None = None) -> Task:
    note = (
        f"The same GUE task name `{name}` in Feng et al.'s benchmark; the study's files state "
        "neither the data files nor the split, so the same files and split are not shown: "
        "kept apart."
    )
    return Task("GUE", name, sweep, ((f"{FENG}{name.replace('_', '-').lower()}", note),))


def _ntv2(name: str, feng: bool = False) -> Task:
    if not feng:
        return Task("NTv2", name)
    note = (
        f"The same histone-mark name `{name}` in Feng et al.'s benchmark; which release of "
        "the Nucleotide Transformer tasks each uses, and their files and split, are not "
        "shown to be the same: kept apart."
    )
    return Task("NTv2", name, None, ((f"{FENG}{name.lower()}", note),))


_NT_18 = "gfm-guide-20261014-dataset-nt-benchmark-18-tasks"


def _ntv1(name: str) -> Task:
    note = (
        f"Lindsey et al.'s attention sweep labels `{name}` with the benchmark code NTv1 (the "
        "original Nucleotide Transformer tasks); one of that benchmark's 18 tasks by name, "
        "its files and split not stated: kept apart."
    )
    return Task("NTv1", name, None, ((_NT_18, note),))


TASKS: tuple[Task, ...] = (
    _gb(
        "demo_coding_vs_intergenomic",
        "demo_coding_vs_intergenomic_seqs",
        "demo_coding_vs_intergenomic_seqs",
    ),
    _gb("demo_human_or_worm", "demo_human_or_worm"),
    _gb("drosophilia_enhancers", "drosophila_enhancers_stark", "drosophila_enhancers_stark"),
    _gb("dummy_mouse_enhancers", "dummy_mouse_enhancers_ensembl", "dummy_mouse_enhancers_ensembl"),
    _gb("human_enhancers_cohn", "human_enhancers_cohn"),
    _gb("human_enhancers_ensembl", "human_enhancers_ensembl"),
    _gb("human_ensembl_regulatory", "human_ensembl_regulatory"),
    _gb("human_nontata_promoters", "human_nontata_promoters"),
    _gb("human_ocr_ensembl", "human_ocr_ensembl"),
    *(
        _gue(f"prom_{size}_{kind}")
        for size in ("300", "core")
        for kind in ("all", "notata", "tata")
    ),
    *(_gue(f"tf_{n}", f"human_tf_{n}") for n in range(5)),
    *(_gue(f"mouse_{n}") for n in range(5)),
    _gue("covid", "virus_covid"),
    _gue("reconstructed", "splice_reconstructed"),
    _ntv2("H2AFZ"),
    _ntv2("H3K27ac"),
    _ntv2("H3K27me3"),
    _ntv2("H3K36me3", feng=True),
    _ntv2("H3K4me1", feng=True),
    _ntv2("H3K4me2", feng=True),
    _ntv2("H3K4me3", feng=True),
    _ntv2("H3K9ac", feng=True),
    _ntv2("H3K9me3"),
    _ntv2("H4K20me1"),
    _ntv2("enhancers"),
    _ntv2("enhancers_types"),
    _ntv2("promoter_all"),
    _ntv2("promoter_no_tata"),
    _ntv2("promoter_tata"),
    _ntv2("splice_sites_all"),
    _ntv2("splice_sites_acceptors"),
    _ntv2("splice_sites_donors"),
    *(_ntv1(n) for n in ("enhancers", "enhancers_types", "splice_sites_all")),
    *(_ntv1(n) for n in ("splice_sites_acceptors", "splice_sites_donor")),
    Task(None, "phage_fragments"),
)


def attention_index() -> dict[str, Task]:
    """`<benchmark>/<task>` label of the attention tables -> task."""
    return {t.attention_label: t for t in TASKS if t.benchmark is not None}


def state_space_index() -> dict[str, Task]:
    """Task label of the state-space tables (best and sweep names) -> task."""
    out: dict[str, Task] = {}
    for task in TASKS:
        if task.benchmark == "NTv1":
            continue  # the original NT tasks appear only in the attention sweep
        out[task.name] = task
        if task.sweep_name is not None:
            out[task.sweep_name] = task
    return out


def dataset_id(task: Task) -> str:
    return f"{PREFIX}-dataset-{task.key.replace('_', '-').lower()}"
