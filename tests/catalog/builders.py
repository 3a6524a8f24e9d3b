"""Catalog items for the tests: the issue's two examples."""

from catalog import services

MPI_RULES = {
    "workload_class": {"value": "parallel-distributed"},
    "worker_count": {"value": 4, "editable": True, "min": 2, "max": 16},
    "vcpus_per_node": {"value": 16},
    "memory_gb_per_node": {"value": 64, "editable": True, "min": 32, "max": 256},
    "login_node": {"value": True},
    "interconnect": {"value": "sriov-ib", "editable": True, "choices": ["sriov-ib", "pvrdma"]},
}
ML_RULES = {
    "workload_class": {"value": "ml"},
    "worker_count": {"value": 2, "editable": True, "min": 1, "max": 4},
    "vcpus_per_node": {"value": 8},
    "memory_gb_per_node": {"value": 32},
    "login_node": {"value": False},
    "interconnect": {"value": "sriov-roce"},
    "gpu_mode": {"value": "passthrough"},
    "gpus_per_worker": {"value": 2},
}


def mpi_item(admin, **overrides):
    data = {
        "slug": "mpi-gromacs", "name": "MPI cluster (GROMACS, SR-IOV IB)", "summary": "GROMACS over InfiniBand",
        "description": "SR-IOV VFs run within about 8% of bare metal; no vMotion.", "rules": MPI_RULES,
        "max_lease_days": 90,
    }  # fmt: skip
    data.update(overrides)
    return services.create_item(admin, data)


def ml_item(admin, **overrides):
    data = {"slug": "ml-training", "name": "ML training (2 GPUs per worker, RoCE)", "rules": ML_RULES}
    data.update(overrides)
    return services.create_item(admin, data)
