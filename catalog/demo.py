"""The demo site's catalog: the issue's examples, each with its trade-offs from the site's documents."""

from catalog import services
from catalog.models import CatalogItem

DEMO_ITEMS = [
    {
        "slug": "mpi-gromacs",
        "name": "MPI cluster (GROMACS, SR-IOV IB)",
        "summary": "Molecular dynamics over InfiniBand: 4 workers by default, up to 16.",
        "description": "SR-IOV InfiniBand VFs give MPI about 95 Gb/s of 100 and 1.2 µs latency; GROMACS, LAMMPS and "
        "OpenFOAM run within about 8% of bare metal. In exchange: no vMotion, DRS, HA or snapshots, and every VM "
        "reserves all of its memory. Choose PVRDMA instead to keep vMotion at some speed.",
        "max_lease_days": 120,
        "rules": {
            "workload_class": {"value": "parallel-distributed"},
            "worker_count": {"value": 4, "editable": True, "min": 2, "max": 16},
            "vcpus_per_node": {"value": 16, "editable": True, "min": 8, "max": 44},
            "memory_gb_per_node": {"value": 64, "editable": True, "min": 32, "max": 144},
            "login_node": {"value": True},
            "interconnect": {"value": "sriov-ib", "editable": True, "choices": ["sriov-ib", "pvrdma"]},
        },
    },
    {
        "slug": "ml-training",
        "name": "ML training (2 GPUs per worker, RoCE)",
        "summary": "Two whole GPUs per worker and a whole 100 Gb/s RoCE NIC (DirectPath I/O).",
        "description": "Whole GPUs in passthrough perform like bare metal; remote GPU traffic over 100 Gb/s RoCE in "
        "DirectPath I/O stays within 5% of local. Nothing here can vMotion, and every VM reserves all of its memory.",
        "max_lease_days": 30,
        "rules": {
            "workload_class": {"value": "ml"},
            "worker_count": {"value": 1, "editable": True, "min": 1, "max": 2},
            "vcpus_per_node": {"value": 16},
            "memory_gb_per_node": {"value": 64},
            "login_node": {"value": False},
            "interconnect": {"value": "directpath"},
            "gpu_mode": {"value": "passthrough"},
            "gpus_per_worker": {"value": 2},
        },
    },
    {
        "slug": "ml-vgpu-pvrdma",
        "name": "ML inference (vGPU slices, PVRDMA)",
        "summary": "A 20 GB or 10 GB NVIDIA vGPU per worker; PVRDMA keeps vMotion.",
        "description": "vGPU shares an A100 in fixed slices (one size per GPU). PVRDMA sits between 10 Gb/s VMXNET3 "
        "(4-20% remote GPU overhead) and RoCE DirectPath I/O (5% or less) and keeps vMotion, DRS and HA.",
        "rules": {
            "workload_class": {"value": "ml"},
            "worker_count": {"value": 2, "editable": True, "min": 1, "max": 4},
            "vcpus_per_node": {"value": 8},
            "memory_gb_per_node": {"value": 32},
            "login_node": {"value": False},
            "interconnect": {"value": "pvrdma"},
            "gpu_mode": {"value": "vgpu"},
            "gpus_per_worker": {"value": 1},
            "vgpu_profile": {"value": "grid_a100-20c", "editable": True, "choices": ["grid_a100-20c", "grid_a100-10c"]},
        },
    },
]


def seed(admin) -> int:
    """Publish the demo items that do not exist yet; return how many were created."""
    created = 0
    for item in DEMO_ITEMS:
        if not CatalogItem.objects.filter(slug=item["slug"]).exists():
            services.create_item(admin, item)
            created += 1
    return created
