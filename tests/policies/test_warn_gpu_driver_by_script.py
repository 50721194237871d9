"""warn-gpu-driver-by-script: from a GPU VM with the NVIDIA extension and a harmless script, one change per test."""

from __future__ import annotations

import base64

import pytest

from tests.policy_helpers import Res, found

POLICY = "warn-gpu-driver-by-script"
VM = "azure-native:compute:VirtualMachine"
VMSS = "azure-native:compute:VirtualMachineScaleSet"
EXTENSION = "azure-native:compute:VirtualMachineExtension"
GPU = "Standard_NC4as_T4_v3"
HARMLESS = "#!/bin/bash\nnvidia-smi -q > /var/log/gpu.txt\napt-get install -y jq\n"
REMEDY = (
    "install it with the NVIDIA GPU Driver Extension (Microsoft.HpcCompute NvidiaGpuDriverLinux, as GpuVm and "
    "TrainingCluster do) or, on AKS, let the GPU Operator or AKS own it."
)


def b64(script: str) -> str:
    return base64.b64encode(script.encode()).decode()


def vm(custom_data: str = HARMLESS, size: str = GPU) -> Res:
    return Res(
        VM,
        "gpu-vm",
        {"resourceGroupName": "rg", "hardwareProfile": {"vmSize": size}, "osProfile": {"customData": b64(custom_data)}},
    )


def script_extension(command: str) -> Res:
    return Res(
        EXTENSION,
        "setup",
        {
            "resourceGroupName": "rg",
            "vmName": "gpu-vm",
            "publisher": "Microsoft.Azure.Extensions",
            "type": "CustomScript",
            "settings": {"commandToExecute": command},
        },
    )


def test_passes_a_script_that_installs_no_driver() -> None:
    assert found([vm(), script_extension("bash setup.sh && pip install torch")], POLICY) == []


@pytest.mark.parametrize(
    ("line", "how"),
    [
        ("apt-get install -y nvidia-driver-550-server", "a distribution's NVIDIA driver package"),
        ("sudo apt install --no-install-recommends nvidia-headless-535", "a distribution's NVIDIA driver package"),
        ("dnf -y install nvidia-driver-cuda", "a distribution's NVIDIA driver package"),
        ("apt-get -y install cuda-drivers", "the cuda-drivers package"),
        ("ubuntu-drivers autoinstall", "ubuntu-drivers"),
        ("sh NVIDIA-Linux-x86_64-550.54.15.run --silent", "NVIDIA's .run installer"),
    ],
    ids=["apt-get", "apt-headless", "dnf", "cuda-drivers", "ubuntu-drivers", "run-file"],
)
def test_reports_custom_data_that_installs_a_driver(line: str, how: str) -> None:
    assert found([vm(HARMLESS + line + "\n")], POLICY) == [
        ("advisory", "gpu-vm", f"osProfile.customData of 'gpu-vm' installs the NVIDIA driver with {how}; {REMEDY}")
    ]


def test_reports_a_custom_script_extension_and_a_scale_set_inline_one() -> None:
    scale_set = Res(
        VMSS,
        "nodes",
        {
            "resourceGroupName": "rg",
            "sku": {"name": GPU, "capacity": 2},
            "virtualMachineProfile": {
                "extensionProfile": {
                    "extensions": [{"name": "setup", "settings": {"commandToExecute": "ubuntu-drivers install"}}]
                }
            },
        },
    )

    assert found([vm(), script_extension("apt-get install -y cuda-drivers"), scale_set], POLICY) == [
        (
            "advisory",
            "setup",
            f"settings.commandToExecute of 'setup' installs the NVIDIA driver with the cuda-drivers package; {REMEDY}",
        ),
        (
            "advisory",
            "nodes",
            "virtualMachineProfile.extensionProfile.extensions[0].settings.commandToExecute of 'nodes' installs the "
            f"NVIDIA driver with ubuntu-drivers; {REMEDY}",
        ),
    ]


def test_stacks_without_gpu_hosts_are_left() -> None:
    assert found([vm("apt-get install -y nvidia-driver-550", size="Standard_D4s_v5")], POLICY) == []


def test_reports_user_data_that_installs_a_driver() -> None:
    # userData: a script the VM reads from the instance metadata service, beside customData
    with_user_data = vm()
    with_user_data.props["userData"] = b64("apt-get install -y nvidia-driver-550-server\n")

    assert found([with_user_data], POLICY) == [
        (
            "advisory",
            "gpu-vm",
            f"userData of 'gpu-vm' installs the NVIDIA driver with a distribution's NVIDIA driver package; {REMEDY}",
        )
    ]


def test_custom_data_written_without_base64_is_still_read() -> None:
    # Azure wants customData base64-encoded; a program that forgot still meant this script
    plain = vm()
    plain.props["osProfile"]["customData"] = "ubuntu-drivers autoinstall"

    assert found([plain], POLICY) == [
        (
            "advisory",
            "gpu-vm",
            f"osProfile.customData of 'gpu-vm' installs the NVIDIA driver with ubuntu-drivers; {REMEDY}",
        )
    ]


def test_a_script_with_bytes_that_are_not_utf_8_is_still_read() -> None:
    # a comment saved in Latin-1 beside the install line
    latin1 = "# café\napt-get install -y nvidia-driver-550-server\n".encode("latin-1")
    script = vm()
    script.props["osProfile"]["customData"] = base64.b64encode(latin1).decode()

    [(_, _, message)] = found([script], POLICY)
    assert message.startswith("osProfile.customData of 'gpu-vm' installs the NVIDIA driver with a distribution's")
