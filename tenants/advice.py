"""Recommendations and trade-offs per workload class, from measurements at research-computing sites."""

from dataclasses import dataclass

from tenants.choices import DataPath, GpuMode, Interconnect, NetworkMode, WorkloadClass


@dataclass(frozen=True)
class Recommendation:
    interconnect: str
    network_mode: str
    data_path: str
    why: str


RECOMMENDED = {
    WorkloadClass.HIGH_THROUGHPUT: Recommendation(
        Interconnect.NONE, NetworkMode.VLAN, DataPath.STANDARD,
        "Mostly NFS I/O and little inter-node traffic: keep every core for jobs; the "
        "distributed firewall and overlays cost almost nothing here.",
    ),
    WorkloadClass.PARALLEL: Recommendation(
        Interconnect.SRIOV_IB, NetworkMode.VLAN, DataPath.STANDARD,
        "MPI codes (OpenFOAM, WRF, LAMMPS, GROMACS) need RDMA: SR-IOV InfiniBand VFs run within "
        "about 8% of bare metal.",
    ),
    WorkloadClass.ML: Recommendation(
        Interconnect.SRIOV_ROCE, NetworkMode.VLAN, DataPath.ENHANCED,
        "Remote GPUs need bandwidth and low latency: RoCE at 100 Gb/s and the enhanced data "
        "path on client and server.",
    ),
}  # fmt: skip

IB_UNMANAGED = (
    "VF traffic bypasses the virtual switch: the tenant's firewall does not filter it, and this site's "
    "InfiniBand fabric is not managed by Enclave: VFs share the default partition with other tenants, so "
    "native InfiniBand (verbs, MPI) is NOT isolated between tenants."
)
# Whether the site's InfiniBand hosts are on fabrics Enclave manages, in a sentence; the fabrics app sets it.
IB_ISOLATION: dict = {"note": lambda: IB_UNMANAGED}

TRADE_OFFS = {
    Interconnect.SRIOV_IB: "SR-IOV: ~95 Gb/s of 100 and 1.2 µs latency, but no vMotion, DRS, HA or "
    "snapshots, and every VM must reserve all of its memory.",
    Interconnect.SRIOV_ROCE: "SR-IOV RoCE: near bare-metal bandwidth; no vMotion and full memory "
    "reservation, as for every passthrough device. VF traffic bypasses the virtual switch: the tenant's "
    "firewall does not filter it; its isolation rests on the tenant's own VLAN.",
    Interconnect.PVRDMA: "PVRDMA: between VMXNET3 and SR-IOV in speed (remote GPUs over 100 Gb/s PVRDMA land between "
    "10 Gb/s VMXNET3's 4-20% and RoCE DirectPath I/O's 5% or less overhead) and keeps vMotion, DRS, HA and snapshots; "
    "all guest memory is reserved; hosts need a VMkernel adapter tagged for PVRDMA and the pvrdma firewall rule.",
    Interconnect.DIRECTPATH: "DirectPath I/O (a whole RoCE NIC per node): the fastest measured, remote GPUs over "
    "100 Gb/s RoCE within 5% of a local GPU; but no vMotion, hot-add, snapshots, DRS or HA, one VM per NIC, and every "
    "VM reserves all of its memory.",
    Interconnect.NONE: "VMXNET3 only: keeps vMotion and HA; 4-20% overhead for remote GPUs at 10 Gb/s.",
    NetworkMode.OVERLAY: "Overlay: spans L3 boundaries but costs 50 bytes per packet (MTU 9000 → "
    "8950; IPoIB 2044 → 1994) and CPU; the firewall costs ~8% bandwidth on GENEVE vs ~5% on VLAN. "
    "Use it only when the network must span physical boundaries.",
    NetworkMode.VLAN: "VLAN: no encapsulation and MTU 9000, but VLAN ids are a scarce site resource.",
    DataPath.ENHANCED: "Enhanced data path: latency 40 → 23 µs, but it dedicates cores per NIC and "
    "slowed high-throughput jobs on full hosts.",
    DataPath.DPU: "DPU offload (vSphere 8 + NSX 4): passthrough-like speed (+46% iperf3) while "
    "keeping vMotion, DRS, HA and the firewall; needs DPU-equipped hosts.",
}


GPU_TRADE_OFFS = {
    GpuMode.PASSTHROUGH: "Whole GPUs (DirectPath I/O): a passthrough GPU performs like bare metal for HPC and ML "
    "(the baseline of the site's Bitfusion study); one VM per GPU, no vMotion or snapshots, all memory reserved.",
    GpuMode.VGPU: "NVIDIA vGPU: a time-sliced share of a GPU (a profile, e.g. 20 GB of a 40 GB A100); one profile size "
    "per GPU at a time, all memory reserved. The site's documents name vGPU but measure no vGPU figures.",
}


def recommendation(workload_class: str) -> Recommendation | None:
    """Return the recommended settings for a workload class."""
    try:
        return RECOMMENDED[WorkloadClass(workload_class)]
    except ValueError:
        return None


def notes(workload_class: str, interconnect: str, network_mode: str, data_path: str, gpu_mode: str = "") -> list[str]:
    """Return the trade-offs of the chosen settings, and where they depart from the advice."""
    chosen = [interconnect, network_mode, data_path]
    result = [TRADE_OFFS[c] for c in chosen if c in TRADE_OFFS]
    if interconnect == Interconnect.SRIOV_IB:
        result[0] += " " + IB_ISOLATION["note"]()
    if gpu_mode in GPU_TRADE_OFFS:
        result.append(GPU_TRADE_OFFS[gpu_mode])
    rec = recommendation(workload_class)
    if rec and interconnect == Interconnect.NONE and rec.interconnect != Interconnect.NONE:
        result.insert(0, "This workload class usually needs an RDMA interconnect; without one, "
                         "inter-node communication runs over VMXNET3.")  # fmt: skip
    if workload_class == WorkloadClass.HIGH_THROUGHPUT and data_path == DataPath.ENHANCED:
        result.insert(0, "The enhanced data path takes cores away from high-throughput jobs.")
    return result
