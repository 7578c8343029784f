"""Peak dense bf16 tensor-core FLOP/s per GPU model, each figure citing its datasheet,
looked up from the GPU name a run log records (`torch.cuda.get_device_properties().name`,
for example "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H200",
"NVIDIA A100-SXM4-80GB").

NVIDIA's datasheets print bf16 throughput with 2:4 structured sparsity; the dense figure,
which MFU divides by, is half of it (the datasheets say so in a footnote). A GPU missing
from the table is an error naming it: MFU is never computed against another GPU's peak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

H100_DATASHEET = "https://resources.nvidia.com/en-us-tensor-core/nvidia-tensor-core-gpu-datasheet"
H200_DATASHEET = "https://www.nvidia.com/en-us/data-center/h200/"
A100_DATASHEET = (
    "https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
    "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf"
)


@dataclass(frozen=True)
class DevicePeak:
    """One GPU model's datasheet peak."""

    model: str
    """The model as the datasheet names it, e.g. 'H100 SXM'."""
    bf16_dense_tflops: float
    """Dense bf16 tensor-core peak, TFLOP/s (half the printed with-sparsity figure)."""
    printed: str
    """The datasheet's own words for the figure."""
    url: str
    """Where the datasheet is."""
    pattern: str
    """Regular expression (case-insensitive) a GPU name matches for this model."""

    @property
    def source(self) -> str:
        """One line for a record's note: figure, words and URL."""
        return (
            f"NVIDIA {self.model}: {self.bf16_dense_tflops:g} TFLOP/s dense bf16 "
            f"({self.printed}; {self.url})"
        )


PEAKS: tuple[DevicePeak, ...] = (
    # the first match wins: the more specific names first
    DevicePeak("H200 NVL", 835.5, "BF16 Tensor Core 1,671 TFLOPS with sparsity",
               H200_DATASHEET, r"\bH200\b.*\bNVL\b"),
    DevicePeak("H200 SXM", 989.5, "BF16 Tensor Core 1,979 TFLOPS with sparsity",
               H200_DATASHEET, r"\bH200\b"),
    DevicePeak("H100 NVL", 835.5, "BF16 Tensor Core 1,671 TFLOPS with sparsity",
               H100_DATASHEET, r"\bH100\b.*\bNVL\b"),
    DevicePeak("H100 PCIe", 756.5, "BF16 Tensor Core 1,513 TFLOPS with sparsity",
               H100_DATASHEET, r"\bH100\b.*\bPCIe\b"),
    DevicePeak("H100 SXM", 989.5, "BF16 Tensor Core 1,979 TFLOPS with sparsity",
               H100_DATASHEET, r"\bH100\b"),
    DevicePeak("A100", 312.0, "BFLOAT16 Tensor Core 312 TFLOPS, 624 with sparsity (SXM and "
               "PCIe, 40 and 80 GB alike)", A100_DATASHEET, r"\bA100\b"),
)  # fmt: skip


class UnknownDevice(LookupError):
    """A GPU name that matches no model of the peak table."""


def peak_for(gpu_name: str) -> DevicePeak:
    """The datasheet peak of the GPU a log names; `UnknownDevice` when none matches."""
    for peak in PEAKS:
        if re.search(peak.pattern, gpu_name, flags=re.IGNORECASE):
            return peak
    known = ", ".join(p.model for p in PEAKS)
    raise UnknownDevice(
        f"no datasheet peak for GPU {gpu_name!r} (known: {known}); add it to "
        "measure/peak_flops.py with its datasheet"
    )
