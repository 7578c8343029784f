"""Task and model identity for DNALLM-Mark (zhangtaolab/dnallmmark): which record each of
the source's own labels belongs to.

Tasks: every DNALLM-Mark task gets its own dataset record (label scope `dnallm-mark`). The
source states a folder of its Zenodo archive and the split sizes for each task
(`pipeline/datasets_info.json`), not the files themselves, so no task is merged with
another source's dataset (`same_task` needs the same files shown); where another record
names the same benchmark task the link is `related`, with the sizes each side states.

Models: a performance file's name (`<label>_performance.json`) is the model label. A
label maps to a checkpoint (its Hugging Face id as the file's `info` block prints it) of
an existing family record where Rewire has one (`EXISTING`: the editor's records carry the
label on that checkpoint), else to a family record this importer writes (`NEW_FAMILIES`,
grouped by the `series` the file prints, one family per hub id prefix where one series
mixes model lines). A label whose checkpoint cannot be pinned is a family-level label
(`FAMILY_ONLY`): shown with the concern "checkpoint not pinned", never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

SCOPE = "dnallm-mark"

FENG = "feng-2024-dataset-"
GB = "genomic-benchmarks-dataset-"
GUE_SUITE = "evidence-20261130-dataset-gue"
GUE_PLUS_EPI = "evidence-20261130-dataset-gue-plus-epi"
NT_SUITE = "gfm-guide-20261014-dataset-nt-benchmark-18-tasks"


@dataclass(frozen=True)
class Related:
    dataset: str
    name: str
    """The other record's own name for the task, with its source."""
    sizes: tuple[int, int] | None = None
    """(training, test) sequences as the other record states them; None if it states none."""
    suite: bool = False
    """True when the other record is a whole benchmark suite, not one task."""
    names_differ: str = ""
    """Where the two names differ: how (replaces 'by name')."""


_FENG_SIZES: dict[str, tuple[int, int]] = {
    "h3": (11971, 1497),
    "h3k14ac": (26438, 3305),
    "h3k36me3": (27904, 3488),
    "h3k4me1": (25341, 3168),
    "h3k79me3": (23069, 2884),
    "h3k9ac": (22224, 2779),
    "h4": (11679, 1461),
    "h4ac": (27275, 3410),
    "tf-0": (32378, 1000),
    "mouse-1": (53952, 6745),
    "mouse-4": (15064, 1883),
    "prom-300-all": (47356, 5920),
    "prom-core-all": (47356, 5920),
    "covid": (73335, 9168),
    "coding": (75000, 25000),
    "human-worm": (75000, 25000),
    "regulatory": (150000, 57713),
    "4mc-c-elegans": (84926, 36398),
    "4mc-d-melanogaster": (126466, 54200),
    "4mc-e-coli": (8681, 3721),
    "5mc": (2344, 2344),
    "6mc": (18336, 18334),
    "r-capsulatus": (7406, 3175),
}
"""Training and test sizes of Feng et al.'s dataset records (records/feng-2024-dataset-*,
from their summary table), copied here so that the import reads only the pinned files."""


def _feng(key: str, name: str, names_differ: str = "") -> Related:
    return Related(
        f"{FENG}{key}",
        f"`{name}` of Feng et al.'s benchmark",
        _FENG_SIZES[key],
        names_differ=names_differ,
    )


_GUE_FENG = {
    "emp_H3": ("h3", "H3"),
    "emp_H3K14ac": ("h3k14ac", "H3K14ac"),
    "emp_H3K36me3": ("h3k36me3", "H3K36me3"),
    "emp_H3K4me1": ("h3k4me1", "H3K4me1"),
    "emp_H3K79me3": ("h3k79me3", "H3K79me3"),
    "emp_H3K9ac": ("h3k9ac", "H3K9ac"),
    "emp_H4": ("h4", "H4"),
    "emp_H4ac": ("h4ac", "H4ac"),
    "human_tf_0": ("tf-0", "tf_0"),
    "mouse_1": ("mouse-1", "mouse_1"),
    "mouse_4": ("mouse-4", "mouse_4"),
    "prom_300_all": ("prom-300-all", "prom_300_all"),
    "prom_core_all": ("prom-core-all", "prom_core_all"),
    "virus_covid": ("covid", "covid"),
}

RELATED: dict[str, tuple[Related, ...]] = {
    **{
        f"GUE__{task}": (
            _feng(key, name),
            Related(GUE_SUITE, "the GUE benchmark", suite=True),
        )
        for task, (key, name) in _GUE_FENG.items()
    },
    "GUE__EPI_GM12878": (Related(GUE_PLUS_EPI, "the GUE+ EPI datasets", suite=True),),
    "GUE__fungi_species_20": (Related(GUE_SUITE, "the GUE benchmark", suite=True),),
    "GUE__virus_species_40": (Related(GUE_SUITE, "the GUE benchmark", suite=True),),
    **{
        f"NT_downstream_tasks__{task}": (
            Related(NT_SUITE, "the Nucleotide Transformer benchmark (18 tasks)", suite=True),
        )
        for task in (
            "H3K27ac",
            "H3K27me3",
            "H3K4me2",
            "H3K9me3",
            "enhancers",
            "splice_sites_acceptors",
            "splice_sites_all",
            "splice_sites_donors",
        )
    },
    "Genomic_Benchmarks__coding": (
        Related(f"{GB}demo-coding-vs-intergenomic-seqs", "`demo_coding_vs_intergenomic_seqs`"),
        _feng("coding", "coding"),
    ),
    "Genomic_Benchmarks__human_vs_worm": (
        Related(f"{GB}demo-human-or-worm", "`demo_human_or_worm` of Genomic Benchmarks"),
        _feng("human-worm", "human_worm"),
    ),
    "Genomic_Benchmarks__regulatory_region_type": (
        Related(
            f"{GB}human-ensembl-regulatory", "`human_ensembl_regulatory` of Genomic Benchmarks"
        ),
        _feng("regulatory", "regulatory"),
    ),
    "Deep4mC_datasets__C.elegans_4mC": (_feng("4mc-c-elegans", "4mC_C.elegans"),),
    "Deep4mC_datasets__D.melanogaster_4mC": (_feng("4mc-d-melanogaster", "4mC_D.melanogaster"),),
    "Deep4mC_datasets__E.coli_4mC": (_feng("4mc-e-coli", "4mC_E.coli"),),
    "iDNA_ABF_datasets__5mC": (_feng("5mc", "5mC"),),
    "iDNA_ABF_datasets__6mA": (_feng("6mc", "6mC", "named 6mC there and 6mA here"),),
    "iPro-WAEL_datasets__Promoter_R_capsulatus": (_feng("r-capsulatus", "R.capsulatus"),),
}
"""DNALLM-Mark task label -> the existing dataset records that name the same task."""


def related_note(other: Related, label: str, folder: str, train: int, test: int) -> str:
    """How a DNALLM-Mark task and another record are related, from what each states;
    never a claim that the files are the same."""
    apart = (
        "The files themselves are not shown to be the same (DNALLM-Mark's copies are in its "
        "Zenodo archive), so the two are kept apart."
    )
    mine = f"DNALLM-Mark states {train} training and {test} test sequences for `{label}`"
    if other.suite:
        return (
            f"A task of {other.name} by its folder name in DNALLM-Mark's archive "
            f"(`{folder}`); {mine} (pipeline/datasets_info.json). {apart}"
        )
    if other.names_differ:
        opening = f"Possibly the same task as {other.name} ({other.names_differ})"
    else:
        opening = f"The same benchmark task as {other.name} by name"
    if other.sizes is None:
        return f"{opening}; {mine}. {apart}"
    their_train, their_test = other.sizes
    sizes = "the same sizes" if other.sizes == (train, test) else "different sizes"
    return (
        f"{opening}, with {sizes}: {mine}; the other "
        f"record states {their_train} training and {their_test} test sequences. {apart}"
    )


# --- models ---------------------------------------------------------------------------

CADUCEUS = "evidence-20261130-family-caduceus"
DNABERT_2 = "evidence-20261130-family-dnabert-2"
HYENADNA = "evidence-20261130-family-hyenadna"
NUCLEOTIDE_TRANSFORMER = "gfm-guide-20261014-family-nucleotide-transformer"
GENA_LM = "saadat-fellay-20261015-family-gena-lm"
GPN = "catalogue-family-gpn"
MISTRAL_DNA = "rewire-20261202-family-mistral-dna"
EVO_2 = "evo2-gene-completion-family-evo-2"

EXISTING: dict[str, str] = {
    "DNABERT-2-117M": DNABERT_2,
    "caduceus-ph_seqlen-131k_d_model-256_n_layer-16": CADUCEUS,
    "caduceus-ps_seqlen-131k_d_model-256_n_layer-16": CADUCEUS,
    "hyenadna-large-1m-seqlen-hf": HYENADNA,
    "nucleotide-transformer-v2-500m-multi-species": NUCLEOTIDE_TRANSFORMER,
    "agro-nucleotide-transformer-1b": NUCLEOTIDE_TRANSFORMER,
    "gena-lm-bert-large-t2t": GENA_LM,
    "gena-lm-bigbird-base-t2t": GENA_LM,
    "gpn-brassicales": GPN,
    "Mistral-DNA-v1-138M-virus": MISTRAL_DNA,
    "Mistral-DNA-v1-417M-Athaliana": MISTRAL_DNA,
    "Mistral-DNA-v1-422M-hg38": MISTRAL_DNA,
    "evo2_1b_base": EVO_2,
}
"""Model label -> an existing family record; the label sits on the checkpoint whose name
is the file's Hugging Face id (added to the editor's record; for GPN in families.py, for
Evo 2 in evo2.py, the importers that write those records)."""


@dataclass(frozen=True)
class NewFamily:
    key: str
    name: str
    labels: tuple[str, ...]
    """The model labels (performance file names) of the family's checkpoints."""


NEW_FAMILIES: tuple[NewFamily, ...] = (
    NewFamily(
        "generanno",
        "GENERanno",
        ("GENERanno-eukaryote-0.5b-base", "GENERanno-prokaryote-0.5b-base"),
    ),
    NewFamily("grover", "GROVER", ("GROVER",)),
    NewFamily("genomeocean", "GenomeOcean", ("GenomeOcean-500M",)),
    NewFamily("jamba-dna", "Jamba-DNA", ("Jamba-DNA-v1-114M-hg38",)),
    NewFamily("modernbert-dna", "ModernBERT-DNA", ("ModernBERT-DNA-v1-37M-hg38",)),
    NewFamily("mutbert", "MutBERT", ("MutBERT-Multi",)),
    NewFamily("omni-dna", "Omni-DNA", ("Omni-DNA-700M",)),
    NewFamily("omnina", "OmniNA", ("OmniNA-220m",)),
    NewFamily("plantbimoe", "PlantBiMoE", ("PlantBiMoE",)),
    NewFamily(
        "plantcad",
        "PlantCaduceus (PlantCAD, PlantCAD2)",
        ("PlantCaduceus_l32", "PlantCAD2-Small-l24-d0768", "PlantCAD2-Medium-l48-d1024"),
    ),
    NewFamily("borzoi", "Borzoi", ("borzoi-replicate-0",)),
    NewFamily("flashzoi", "Flashzoi", ("flashzoi-replicate-0",)),
    NewFamily("enformer", "Enformer", ("enformer-official-rough",)),
    NewFamily("megadna", "megaDNA", ("megaDNA_updated",)),
    NewFamily(
        "pdllms",
        "Plant DNA LLMs (PDLLMs)",
        (
            "plant-dnabert-6mer",
            "plant-dnagemma-BPE",
            "plant-dnagpt-BPE",
            "plant-dnamamba-6mer",
            "plant-dnamamba-BPE",
            "plant-dnamamba2-BPE",
            "plant-dnamodernbert-singlebase",
            "plant-nucleotide-transformer-6mer",
        ),
    ),
    NewFamily("plant-genomic-jamba", "Plant Genomic Jamba", ("plant-genomic-jamba",)),
    NewFamily("prokbert", "ProkBERT", ("prokbert-mini",)),
    NewFamily("space", "SPACE", ("space",)),
)
"""Families Rewire had no record of: written by this importer, named by the `series` the
source prints (Mourad's series is split by the model line its hub ids name)."""

FAMILY_ONLY: dict[str, str] = {
    "plant-dnamamba2-BPE": (
        "The performance file prints no Hugging Face or ModelScope id for this model "
        '("huggingface": ""), so no checkpoint can be pinned.'
    ),
    "MutBERT-Multi": (
        "The label says MutBERT-Multi but the Hugging Face id the file prints is "
        "CompBioDSA/MutBERT (its ModelScope id is lgq12697/MutBERT-Multi): which published "
        "checkpoint was fine-tuned is not shown, so none is pinned."
    ),
}
"""Model label -> why its checkpoint is not pinned (a family-level label)."""


def family_id(key: str) -> str:
    return f"{SCOPE}-family-{key}"


def model_family(label: str) -> str | None:
    """The family record id of a model label; None for a label no family holds."""
    if label in EXISTING:
        return EXISTING[label]
    for family in NEW_FAMILIES:
        if label in family.labels:
            return family_id(family.key)
    return None
