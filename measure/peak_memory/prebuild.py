"""Build DeepSpeed's cpu_adam op once, before the stages that need it.

`python -m measure.peak_memory.prebuild` with TORCH_EXTENSIONS_DIR set to the run's shared
folder: the ZeRO-2 stages then load the built op instead of compiling it each time."""

from __future__ import annotations

import sys
import time


def main() -> int:
    tick = time.perf_counter()
    try:
        from deepspeed.ops.op_builder import CPUAdamBuilder

        CPUAdamBuilder().load()
    except Exception as error:  # reported; the stages then fail with their own message
        print(f"cpu_adam build failed: {error}", file=sys.stderr)
        return 1
    print(f"cpu_adam ready in {time.perf_counter() - tick:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
