"""Plain data about devices beyond SR-IOV, shared by discovery, intent, plan and preflight (no pyvmomi)."""

from __future__ import annotations

from dataclasses import dataclass

GPU_CLASS = 0x03  # PCI base class: display controller
NETWORK_CLASS = 0x02


@dataclass(frozen=True)
class DiscoveredDevice:
    """A passthrough-enabled device or a GPU in vGPU mode, as vCenter reports it."""

    pci_id: str
    kind: str  # vsphere.choices.DeviceKind
    mode: str  # vsphere.choices.DeviceMode
    vendor_id: int
    device_id: int
    vendor_name: str = ""
    device_name: str = ""
    memory_gib: int = 0
    system_id: str = ""


@dataclass(frozen=True)
class DiscoveredProfile:
    """A vGPU profile a host offers, and how many of it one GPU of its type holds (same-size mode)."""

    name: str
    device_vendor_id: int
    gpu_model: str
    framebuffer_gib: int
    per_gpu: int
    profile_class: str = ""


@dataclass(frozen=True)
class DiscoveredDPU:
    dpu_id: str
    pnic: str
    model: str = ""


@dataclass(frozen=True)
class DiscoveredHost:
    """Everything discovery learns about one host's devices and features."""

    name: str
    devices: tuple[DiscoveredDevice, ...] = ()
    profiles: tuple[DiscoveredProfile, ...] = ()
    dpus: tuple[DiscoveredDPU, ...] = ()
    pvrdma_vmknic: str = ""
    pvrdma_vmknic_exists: bool = False
    pvrdma_firewall: bool = False
    ens: bool = False
    network_offload: bool = False


@dataclass(frozen=True)
class PassthroughDevice:
    """A whole device for one VM (DirectPath I/O): what the device backing must name."""

    pci_id: str
    vendor_id: int
    device_id: int
    system_id: str
    label: str = ""  # for the plan preview: "GPU NVIDIA A100-PCIE-40GB"


@dataclass(frozen=True)
class ObservedDevices:
    """A VM's devices beyond SR-IOV VFs: DirectPath devices, vGPUs, PVRDMA adapters, UPTv2 on VMXNET3."""

    passthrough: tuple[tuple[int, str], ...] = ()  # (device key, PCI id)
    vgpus: tuple[tuple[int, str], ...] = ()  # (device key, profile)
    pvrdma: tuple[tuple[int, str], ...] = ()  # (device key, port group key)
    uptv2: tuple[tuple[int, bool], ...] = ()  # (device key of each plain VMXNET3, uptv2Enabled)
