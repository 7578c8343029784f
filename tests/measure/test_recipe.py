from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from measure.peak_memory.recipe import (
    RecipeError,
    load_recipe,
    nucleotide_tokens,
    parse_recipe,
    parse_setting_filters,
    work_items,
)

TINY_RECIPE = Path(__file__).parent / "fixtures" / "tiny_recipe.yaml"


def test_shipped_recipe_parses_with_the_protocol_facts() -> None:
    recipe = load_recipe()
    assert recipe.protocol == "saadat-fellay-20261015-protocol-training-peak-memory"
    assert (recipe.batch_size, recipe.length, recipe.seed) == (16, 1000, 42)
    assert [s.id for s in recipe.stages] == [
        "baseline",
        "flashattention",
        "checkpointing",
        "deepspeed",
    ]
    assert set(recipe.knobs["precision"]) == {"bf16", "bf16-fp32-states", "fp32-autocast"}
    assert set(recipe.knobs["update"]) == {"full", "lora-r16-qkv"}


def test_nucleotides_become_tokens_by_each_model_rule() -> None:
    recipe = load_recipe()
    # NT: 166 six-mers + 4 single bases + CLS
    assert nucleotide_tokens(recipe.model("nt-2-5b"), 1000) == 171
    # GENA-LM: round(1000 / 8.8) = 114 BPE tokens + CLS + SEP
    assert nucleotide_tokens(recipe.model("gena-lm-110m"), 1000) == 116


def test_thousand_tokens_do_not_fit_gena_lm() -> None:
    recipe = load_recipe()
    tokens, reason = recipe.tokens(recipe.model("gena-lm-110m"), "1000tok")
    assert tokens is None
    assert reason is not None and "512 positions" in reason
    assert recipe.tokens(recipe.model("nt-2-5b"), "1000tok") == (1000, None)


def test_default_sweep_covers_every_policy_at_all_four_stages() -> None:
    recipe = load_recipe()
    items = work_items(recipe)
    full = {
        (i.model.key, i.stage.id, i.setting.precision)
        for i in items
        if i.setting.update == "full" and i.setting.length == "1000nt"
    }
    assert len(full) == 2 * 4 * 3
    assert len({i.key for i in items}) == len(items)
    assert any(i.setting.update == "lora-r16-qkv" for i in items)


def test_filters_select_models_stages_and_settings() -> None:
    recipe = load_recipe()
    items = work_items(
        recipe,
        models=["nt-2-5b"],
        stages=["deepspeed"],
        settings=["precision=fp32-autocast,update=full"],
    )
    assert {i.key for i in items} == {
        f"nt-2-5b--deepspeed--fp32-autocast-full-{length}"
        for length in ("1000nt", "1000tok", "512tok")
    }
    assert parse_setting_filters(["bf16-full-1000nt"], recipe) == [
        {
            "precision": "bf16",
            "update": "full",
            "length": "1000nt",
            "comm": "ds-default",
            "attention": "auto",
        }
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (["colour=red"], "knob=value"),
        (["precision=fp8"], "precision has no value 'fp8'"),
    ],
)
def test_bad_setting_filters_say_what_is_wrong(spec: list[str], message: str) -> None:
    with pytest.raises(RecipeError, match=message):
        parse_setting_filters(spec, load_recipe())


def test_unknown_model_and_stage_are_errors() -> None:
    recipe = load_recipe()
    with pytest.raises(RecipeError, match="no model 'nt-9b'"):
        work_items(recipe, models=["nt-9b"])
    with pytest.raises(RecipeError, match="no stage 'lora'"):
        work_items(recipe, stages=["lora"])


def _data() -> dict:
    return yaml.safe_load(TINY_RECIPE.read_text(encoding="utf-8"))


def test_missing_field_is_named() -> None:
    data = _data()
    del data["stages"][1]["checkpointing"]
    with pytest.raises(RecipeError, match=r"stages\.1\.checkpointing: required"):
        parse_recipe(data)


def test_sweep_naming_an_unknown_stage_is_an_error() -> None:
    data = _data()
    data["sweep"][0]["stages"] = ["baseline", "fsdp"]
    with pytest.raises(RecipeError, match=r"sweep\.0\.stages: unknown stage\(s\) fsdp"):
        parse_recipe(data)


def test_bad_yaml_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "recipe.yaml"
    path.write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(RecipeError, match="not valid YAML"):
        load_recipe(path)
