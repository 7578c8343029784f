"""The architectures added to the memory-curve and throughput recipes, on the CPU build of
torch: Caduceus-PS with its reference selective scan (measure/caduceus.py), NT v2's gated
feed-forward (measure/ntv2.py), HyenaDNA's language model (measure/hyenadna/model.py), and
GENERator's Llama and GROVER's BERT from their restated configurations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

torch = pytest.importorskip("torch", reason="the models need torch (CPU build is enough)")
pytest.importorskip("transformers", reason="NT v2 is built on transformers' ESM")

from measure import caduceus  # noqa: E402
from measure.architectures.build import build_model, parameter_count  # noqa: E402
from measure.architectures.registry import get_architecture  # noqa: E402


def _sequential_scan(u, delta, a, b, c, d):  # type: ignore[no-untyped-def]
    """The recurrence one step at a time (the definition the parallel scan must match)."""
    h = torch.zeros(u.shape[0], u.shape[2], a.shape[1], dtype=torch.float64)
    ys = []
    for t in range(u.shape[1]):
        h = (
            torch.exp(delta[:, t, :, None] * a) * h
            + (delta[:, t] * u[:, t])[..., None] * b[:, t, None, :]
        )
        ys.append((h * c[:, t, None, :]).sum(-1))
    return torch.stack(ys, 1) + u * d


def test_the_reference_scan_matches_the_recurrence_across_segments() -> None:
    generator = torch.Generator().manual_seed(0)
    batch, length, inner, state = 2, caduceus.SEGMENT * 2 + 77, 6, 4

    def rand(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=generator, dtype=torch.float64)

    u, b, c, d = (
        rand(batch, length, inner),
        rand(batch, length, state),
        rand(batch, length, state),
        rand(inner),
    )
    delta = torch.rand(batch, length, inner, generator=generator, dtype=torch.float64) * 0.1
    a = -torch.rand(inner, state, generator=generator, dtype=torch.float64) * 16
    expected = _sequential_scan(u, delta, a, b, c, d)
    got = caduceus.selective_scan(
        u.float(), delta.float(), a.float(), b.float(), c.float(), d.float()
    )
    assert got.shape == expected.shape
    assert torch.allclose(got.double(), expected, atol=1e-4, rtol=1e-4)


def test_the_scan_gradient_matches_the_recurrence() -> None:
    generator = torch.Generator().manual_seed(1)
    u = torch.randn(1, 40, 3, generator=generator, requires_grad=True)
    delta = torch.rand(1, 40, 3, generator=generator) * 0.1
    a = -torch.rand(3, 2, generator=generator) * 4
    b, c = torch.randn(1, 40, 2, generator=generator), torch.randn(1, 40, 2, generator=generator)
    d = torch.randn(3, generator=generator)
    caduceus.selective_scan(u, delta, a, b, c, d).sum().backward()
    got = u.grad.clone()
    u.grad = None
    _sequential_scan(
        u.double(), delta.double(), a.double(), b.double(), c.double(), d.double()
    ).sum().backward()
    assert torch.allclose(got.double(), u.grad.double(), atol=1e-4)


def test_caduceus_ps_is_reverse_complement_equivariant() -> None:
    """RCPS: the logits of a sequence's reverse complement are the reverse complement of its
    logits (positions reversed, bases complemented)."""
    torch.manual_seed(0)
    model = build_model(get_architecture("tiny-caduceus")).eval()
    ids = torch.randint(7, 11, (2, 50))
    complement = model.complement
    with torch.no_grad():
        logits = model(ids).logits
        rc_logits = model(complement[ids.flip(-1)]).logits
    assert torch.allclose(rc_logits, logits.flip(1)[..., complement], atol=1e-4)


@pytest.mark.parametrize("key", ["tiny-caduceus", "tiny-hyena"])
def test_layer_checkpointing_keeps_the_loss_and_gradients(key: str) -> None:
    arch = get_architecture(key)
    ids = torch.randint(7, 11, (2, 64))
    grads = []
    for checkpointing in (False, True):
        torch.manual_seed(0)
        model = build_model(arch)
        if checkpointing:
            model.enable_layer_checkpointing()
        loss = model(ids, labels=ids).loss
        loss.backward()
        grads.append((loss.detach(), [p.grad.clone() for p in model.parameters()]))
    (loss0, g0), (loss1, g1) = grads
    assert torch.allclose(loss0, loss1)
    assert all(torch.allclose(x, y, atol=1e-6) for x, y in zip(g0, g1, strict=True))


def test_the_hyena_language_model_reads_the_backbone_and_predicts_the_next_token() -> None:
    torch.manual_seed(0)
    model = build_model(get_architecture("tiny-hyena")).eval()
    ids = torch.randint(7, 11, (2, 33))
    with torch.no_grad():
        hidden = model.hidden_states(ids)
        assert torch.allclose(hidden, model.backbone(ids), atol=1e-6)
        out = model(ids, labels=ids)
    logits = out.logits
    expected = torch.nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1), ids[:, 1:].flatten())
    assert torch.allclose(out.loss, expected)


def test_nt_v2_has_the_gated_feed_forward_without_biases() -> None:
    arch = get_architecture("nt-v2-100m")
    model = build_model(arch, device="meta")
    layer = model.esm.encoder.layer[0]
    hidden, ffn = arch.config["hidden_size"], arch.config["intermediate_size"]
    assert layer.intermediate.dense.weight.shape == (2 * ffn, hidden)
    assert layer.intermediate.dense.bias is None and layer.output.dense.bias is None
    assert model.config.position_embedding_type == "rotary"
    # the published size is "100M"; the vendored config's dimensions give 96.8M
    assert 0.9 < parameter_count(arch) / arch.published_parameters < 1.0
    tiny = build_model(get_architecture("tiny-ntv2"))
    x = torch.randn(1, 3, 32)
    gate, value = tiny.esm.encoder.layer[0].intermediate.dense(x).chunk(2, dim=-1)
    got = tiny.esm.encoder.layer[0].intermediate(x)
    assert torch.allclose(got, torch.nn.functional.silu(gate) * value)


def test_caduceus_ps_131k_has_the_published_size() -> None:
    arch = get_architecture("caduceus-ps-131k")
    count = parameter_count(arch)
    assert abs(count / arch.published_parameters - 1) < 0.05


def test_generator_is_the_restated_llama_and_fills_its_checkpoint() -> None:
    """GENERator eukaryote 1.2B from its restated config.json: a Llama with grouped-query
    attention (32 heads, 4 key-value heads) and untied output embeddings; its fp32 parameters
    take all but a safetensors header of the checkpoint file's size that the restating
    repository records (4,648,274,384 bytes)."""
    arch = get_architecture("generator-eukaryote-1-2b")
    model = build_model(arch, device="meta")
    assert type(model).__name__ == "LlamaForCausalLM"
    attention = model.model.layers[0].self_attn
    head_dim = arch.config["hidden_size"] // arch.config["num_attention_heads"]
    assert attention.k_proj.weight.shape == (4 * head_dim, arch.config["hidden_size"])
    assert model.lm_head.weight is not model.model.embed_tokens.weight  # untied
    count = parameter_count(arch)
    header = 4_648_274_384 - 4 * count
    assert 0 < header < 100_000, header
    assert arch.nucleotides_per_token == 6.0 and arch.nucleotides_exact


def test_grover_is_the_restated_bert_and_matches_the_catalogued_count() -> None:
    """GROVER from its restated config.json: BertForMaskedLM with 609 tokens; with the pooler
    its checkpoint holds (768 x 768 + 768), the built model has the restating repository's
    catalogue count, 87,101,793."""
    arch = get_architecture("grover")
    model = build_model(arch, device="meta")
    assert type(model).__name__ == "BertForMaskedLM"
    assert model.bert.embeddings.word_embeddings.weight.shape == (609, 768)
    assert model.bert.embeddings.position_embeddings.weight.shape == (512, 768)
    assert parameter_count(arch) + 768 * 768 + 768 == 87_101_793


def test_generator_batches_are_a_bos_then_six_mers_and_predict_every_next_token() -> None:
    from measure.peak_memory import train

    arch = get_architecture("generator-eukaryote-1-2b")
    [batch] = train.synthetic_batches(arch, batch=2, tokens=65, nucleotides=None, steps=1, seed=3)
    ids = batch["input_ids"]
    assert ids.shape == (2, 65)
    assert (ids[:, 0] == 1).all()  # the tokeniser's <s>
    assert int(ids[:, 1:].min()) >= 32 and int(ids.max()) < 4128  # six-mers past 32 specials
    assert torch.equal(batch["labels"], ids)


REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"
FAMILIES = {
    "tiny-caduceus": "evidence-20261130-family-caduceus",
    "tiny-hyena": "evidence-20261130-family-hyenadna",
    "tiny-ntv2": "gfm-guide-20261014-family-nucleotide-transformer",
    "tiny-bert": "evidence-20261202-family-dnabert",
    "tiny-llama": "evidence-20261130-family-generator",
}


@pytest.mark.parametrize("model", sorted(FAMILIES))
def test_records_of_the_new_families_validate(model: str, tmp_path: Path) -> None:
    """A memory point and a throughput point of each new architecture, written by the real
    records writer from CPU logs given a GPU's figures, validate; utilisation (2 FLOPs a
    parameter) is left out for the models without attention, and nucleotides per second
    given only where the tokeniser's ratio is stated."""
    pytest.importorskip("peft")
    from measure.memory_curve.recipe import load_recipe, points
    from measure.memory_curve.records import make_point, point_records
    from measure.memory_curve.runner import point_spec
    from measure.memory_curve.worker import run_point
    from measure.records import store_artifact, write_records
    from measure.registry import RunOptions
    from rewire_site.validate import validate_paths

    (tmp_path / "records").mkdir()
    for record_id in (
        "rewire-20261130-protocol-gpu-memory-curves",
        "rewire-20261202-protocol-embedding-throughput",
        "saadat-fellay-20261015-dataset-synthetic-uniform-random-dna-seed-42",
        FAMILIES[model],
    ):
        shutil.copy(REPO / "records" / f"{record_id}.yaml", tmp_path / "records")
    ours: set[str] = set()
    names: set[str] = set()
    for recipe_file, method in (("tiny_curves.yaml", "peft"), ("tiny_throughput.yaml", "embed")):
        recipe = load_recipe(FIXTURES / recipe_file)
        point = points(recipe, models=[model], methods=[method], batches=[8])[0]
        spec = point_spec(recipe, point, "20261202-new-test", RunOptions(), "test")
        spec["device"] = "cpu"
        log = run_point(spec)
        assert log["status"] == "value", log["error"]
        if method == "embed":
            log["step_seconds"] = [9.0, 0.5, 0.25, 0.3]
        log["memory"].update(peak_allocated_bytes=10**9, peak_reserved_bytes=2 * 10**9)
        log["environment"].update(gpu="NVIDIA H200", gpu_memory_gb=150.0)
        path = tmp_path / f"{method}.json"
        path.write_text(json.dumps(log))
        stored = store_artifact(path, tmp_path, log["run_id"], f"{method}.json")
        artifact = {"path": stored.path, "sha256": stored.sha256, "description": "raw log"}
        written = write_records(
            point_records(make_point(recipe, log, artifact, FAMILIES[model])), tmp_path
        )
        ours.update(p.name for p in written)
        if method == "embed":
            evaluation = yaml.safe_load(written[1].read_text(encoding="utf-8"))
            names = {o["name"] for o in evaluation["results"][0]["observations"]}
    report = validate_paths([tmp_path / "records"], tmp_path, cache=False)
    assert not [str(p) for p in report.problems if p.severity == "error" and p.path.name in ours]
    without_attention = model in ("tiny-caduceus", "tiny-hyena")
    assert ("model-flops-utilisation" in names) == (not without_attention)
    assert ("nucleotides-per-second" in names) == (model != "tiny-bert")
