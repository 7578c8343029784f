"""Recipe for the NT IA3 fine-tuning run-time protocol (issue 5).

Modules: `tasks` (NT benchmark task shapes, leads from secondary sources), `tokens` (NT's
6-mer rule), `data` (seeded synthetic sequences), `adapters` (peft IA3 placement),
`flops` (FLOP count and MFU), `timing` (step-time summary and extrapolation), `worker`
(the torchrun entry point), `evidence` (records from worker logs), `recipe` (the plan
and the `rewire measure` glue). Nothing here imports torch at import time except
`adapters`, `data` and `worker`, which are imported only when a run starts.
"""

from measure.ia3.recipe import IA3Runtime
from measure.registry import register

register(IA3Runtime())
