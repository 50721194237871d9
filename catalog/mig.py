"""Multi-Instance GPU: the slices each GPU model can be split into, and the sizes AKS splits.

AKS takes one `gpuInstanceProfile` per node pool (MIG1g ... MIG7g, the number of compute slices per
instance); what a pod then requests depends on the GPU's memory, so the same profile has a
different device name per model: `MIG1g` is `1g.5gb` on an A100 40GB, `1g.10gb` on an A100 80GB
or H100 80GB, `1g.12gb` on an H100 NVL (94GB) and `1g.18gb` on an H200 (141GB).

Sources (observed 2026-11-25):
- NVIDIA Multi-Instance GPU User Guide, "Supported MIG Profiles" and "Supported GPUs":
  https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html (profile
  names per memory size, instances per GPU: 7 of 1g, 3 of 2g, 2 of 3g, 1 of 4g, 1 of 7g).
- AKS, "Create a multi-instance GPU node pool": https://learn.microsoft.com/azure/aks/gpu-multi-instance
  (MIG on AKS is supported on the A100 sizes, Standard_NC40ads_H100_v5 and Standard_ND96isr_H100_v5;
  the profile cannot be changed after the pool is created; not on Azure Linux node images).
- The Kubernetes resource of a slice under the `mixed` strategy is `nvidia.com/mig-<name>`; under
  `single` every slice is advertised as `nvidia.com/gpu` (NVIDIA k8s-device-plugin README, "MIG
  strategies": https://github.com/NVIDIA/k8s-device-plugin#configuration-option-details).
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import LIMITS

AKS_PROFILES = LIMITS.choices.aks_mig_profiles  # MIG1g ... MIG7g, the SDK's GPUInstanceProfile enum
MIG_STRATEGIES = ("single", "mixed")
MIXED_RESOURCE_PREFIX = "nvidia.com/mig-"

# GPU model, as the catalog names it -> the device name of each AKS profile, in AKS_PROFILES order.
_SLICES_BY_MODEL: dict[str, tuple[str, ...]] = {
    "NVIDIA A100 40GB SXM": ("1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"),
    "NVIDIA A100 80GB PCIe": ("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
    "NVIDIA A100 80GB SXM": ("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
    "NVIDIA H100": ("1g.10gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"),
    "NVIDIA H100 NVL": ("1g.12gb", "2g.24gb", "3g.47gb", "4g.47gb", "7g.94gb"),
    "NVIDIA H200": ("1g.18gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"),
}
_INSTANCES_PER_GPU = (7, 3, 2, 1, 1)  # MIG1g ... MIG7g, the same on every model above

# The sizes AKS accepts a gpuInstanceProfile on (Learn's gpu-multi-instance page, observed 2026-11-25).
AKS_MIG_SIZES = frozenset(
    {
        "Standard_NC24ads_A100_v4",
        "Standard_NC48ads_A100_v4",
        "Standard_NC96ads_A100_v4",
        "Standard_ND96asr_v4",
        "Standard_ND96amsr_A100_v4",
        "Standard_NC40ads_H100_v5",
        "Standard_ND96isr_H100_v5",
    }
)


@dataclass(frozen=True)
class MigSlice:
    """One AKS profile on one GPU model: its device name and how many fit on a GPU."""

    profile: str  # MIG1g
    device: str  # 1g.10gb
    per_gpu: int

    @property
    def mixed_resource(self) -> str:
        """What a pod requests under the `mixed` strategy: nvidia.com/mig-1g.10gb."""
        return MIXED_RESOURCE_PREFIX + self.device


def mig_models() -> tuple[str, ...]:
    """The GPU models NVIDIA's MIG can split."""
    return tuple(_SLICES_BY_MODEL)


def mig_slices(gpu_model: str | None) -> tuple[MigSlice, ...]:
    """Every AKS profile on this GPU model; empty when the model cannot be split."""
    devices = _SLICES_BY_MODEL.get(gpu_model or "", ())
    return tuple(MigSlice(p, d, n) for p, d, n in zip(AKS_PROFILES, devices, _INSTANCES_PER_GPU, strict=False))


def mig_slice(gpu_model: str | None, profile: str) -> MigSlice | None:
    """The slice `profile` gives on this GPU model; None when the model or profile has none."""
    return next((s for s in mig_slices(gpu_model) if s.profile == profile), None)
