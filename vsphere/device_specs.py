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


@dataclass(frozen=True)
class NodeDevices:
    """What one VM should have beyond SR-IOV VFs, on its host."""

    passthrough: tuple[PassthroughDevice, ...] = ()
    vgpus: tuple[str, ...] = ()  # one profile name per vGPU
    pvrdma: bool = False  # a PVRDMA adapter on the tenant's port group
    uptv2: bool = False  # UPTv2 on the primary VMXNET3 (DPU offload)
    ens: bool = False  # the host's switch must run the enhanced data path

    @property
    def needs_reservation(self) -> bool:
        """DirectPath I/O, vGPU and PVRDMA all want every byte of guest memory reserved."""
        return bool(self.passthrough or self.vgpus or self.pvrdma)

    @property
    def any(self) -> bool:
        """Whether the VM needs anything beyond plain NICs and VFs (and so a host that has it)."""
        return bool(self.passthrough or self.vgpus or self.pvrdma or self.uptv2 or self.ens)

    def describe(self) -> list[str]:
        """Each device and feature in words, for the plan preview."""
        out = [d.label or f"PCI device {d.pci_id}" for d in self.passthrough]
        out += [f"vGPU {profile}" for profile in self.vgpus]
        flags = (("a PVRDMA adapter", self.pvrdma), ("UPTv2 (DPU offload)", self.uptv2), ("ENS", self.ens))
        return out + [what for what, wanted in flags if wanted]


@dataclass(frozen=True)
class HostDeviceInventory:
    """What one host offers VMs beyond SR-IOV, as the database knows it (for preflight)."""

    host: str
    passthrough: frozenset[str] = frozenset()  # PCI ids enabled for DirectPath I/O
    shared_gpus: tuple[tuple[int, int], ...] = ()  # (GPU type, GPUs in vGPU mode)
    profiles: tuple[tuple[str, int, int], ...] = ()  # (profile, GPU type, instances per GPU)
    pvrdma_problems: tuple[str, ...] = ("not discovered",)
    ens: bool = False
    offload: bool = False

    def profile(self, name: str) -> tuple[int, int] | None:
        """(GPU type, instances per GPU) of a profile this host's GPUs can run."""
        return next(((kind, per) for n, kind, per in self.profiles if n == name), None)

    def gpus_of(self, kind: int) -> int:
        return dict(self.shared_gpus).get(kind, 0)
