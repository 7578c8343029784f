"""A protocol's headline says "None agrees within the tolerance" only when a published value
was judged. Real case: HyenaDNA's speed-up protocol, whose one published value (160x on an
A100) has a Rewire measurement on an H200; the protocol declares the ratio depends on the
accelerator, so agreement is not judged, and "None agrees" would read as a disagreement."""

from __future__ import annotations

from pathlib import Path

from scenarios import copy_closure

from rewire_site.build import gather
from rewire_site.derive.concerns import flags_by_evaluation
from rewire_site.models import Protocol
from rewire_site.render.findings import protocol_headline

ROOT = Path(__file__).resolve().parents[1]
SPEEDUP = "evidence-20261130-protocol-hyenadna-speedup-vs-transformer"
MEASURED = "rewire-20261130-hyenadna-e1-eval-speedup"


def test_no_disagreement_is_said_where_nothing_was_judged(tmp_path: Path) -> None:
    copy_closure([MEASURED], ROOT / "records", tmp_path / "records")
    catalogue = gather(tmp_path / "records", tmp_path).catalogue
    headline = protocol_headline(
        catalogue.get(SPEEDUP, Protocol), catalogue, flags_by_evaluation(catalogue)
    )
    assert "agreement not judged" in headline.summary
    assert "None agrees" not in headline.summary, headline.summary
