"""The vCenter session, and the Driver facade that holds the parts: switches, port groups, VMs, devices.

Each part is a small class in its own module that reads and waits through the driver; vim/ is the
only code that imports pyvmomi (tests/vsphere/test_rooms.py).
"""

from __future__ import annotations

import contextlib
import ssl
from dataclasses import dataclass

from pyVim.connect import Disconnect, SmartConnect
from pyVmomi import vim

from vsphere.errors import PermanentError
from vsphere.plan.specs import ClusterIntent, Observed
from vsphere.vim import snapshot as snapshots
from vsphere.vim.devices import Devices
from vsphere.vim.faults import guarded
from vsphere.vim.portgroups import Portgroups
from vsphere.vim.snapshot import Snapshot, observed_from
from vsphere.vim.switches import Switches
from vsphere.vim.vms import Vms
from vsphere.vim.waiting import TaskDone, TaskWatch


@dataclass(frozen=True)
class VCenterConfig:
    """How to reach one vCenter; TLS verification is on unless `insecure` is set."""

    host: str
    user: str
    password: str
    port: int = 443
    ca_bundle: str | None = None
    insecure: bool = False
    max_wait_seconds: int = 2  # bound of one WaitForUpdatesEx before the fallback read
    http_timeout: int = 60
    pool_size: int = 16  # concurrent SOAP calls of one batch


def _ssl_context(cfg: VCenterConfig) -> ssl.SSLContext:
    if cfg.insecure:
        return ssl._create_unverified_context()  # noqa: S323  (explicit, visible lab switch)
    return ssl.create_default_context(cafile=cfg.ca_bundle)


class Driver:
    """A logged-in vCenter session: reads and waiting here, changes through its parts."""

    def __init__(self, config: VCenterConfig):
        self.config = config
        self.si = None
        self._content = None
        self._datacenters: dict[str, object] = {}
        self.switches = Switches(self)
        self.portgroups = Portgroups(self)
        self.vms = Vms(self)
        self.devices = Devices(self)

    # -- session

    def connect(self) -> Driver:
        """Log in; TLS is verified against the CA bundle (or system CAs) unless insecure."""
        cfg = self.config
        context = _ssl_context(cfg)
        with guarded("connect"):
            self.si = SmartConnect(
                host=cfg.host,
                port=cfg.port,
                user=cfg.user,
                pwd=cfg.password,
                sslContext=context,
                httpConnectionTimeout=cfg.http_timeout,
            )
        self.si._stub.poolSize = cfg.pool_size
        with guarded("read service content"):
            self._content = self.si.RetrieveContent()  # each si.content access is a round trip
        return self

    def close(self) -> None:
        """Log out; a dead connection is not an error here."""
        if self.si is not None:
            with contextlib.suppress(Exception):
                Disconnect(self.si)
            self.si = None

    def __enter__(self) -> Driver:
        return self.connect() if self.si is None else self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def content(self):
        """The service content, read once per session."""
        return self._content

    # -- waiting

    def watch(self) -> TaskWatch:
        """A collector for waiting on many tasks at once."""
        return TaskWatch(self.content.propertyCollector, self.config.max_wait_seconds)

    def run_tasks(self, tasks: list[tuple[object, str]]) -> list[TaskDone]:
        """Wait for all tasks; raise the first failure after every task finished."""
        with self.watch() as watch:
            watch.add(tasks)
            outcomes = watch.wait_all()
        failed = [o.error for o in outcomes if not o.ok]
        if failed:
            raise failed[0]
        return outcomes

    def wait(self, task, step: str):
        """Wait for one task and return its result."""
        return self.run_tasks([(task, step)])[0].result

    @staticmethod
    def task_id(task) -> str:
        """Stable id of a task within this session (for matching watch outcomes)."""
        return task._moId

    # -- reading

    def datacenter(self, name: str):
        """Datacenter by inventory path, cached for this session."""
        if name not in self._datacenters:
            with guarded(f"find datacenter {name}"):
                found = self.content.searchIndex.FindByInventoryPath(name)
            if not isinstance(found, vim.Datacenter):
                raise PermanentError(f"datacenter {name!r} not found", fault="NotFound")
            self._datacenters[name] = found
        return self._datacenters[name]

    def snapshot(self, datacenter: str) -> Snapshot:
        """Read VMs, switches, port groups, hosts, clusters and datastores in one call."""
        return snapshots.read(self.content, self.datacenter(datacenter))

    def observe(self, intent: ClusterIntent) -> Observed:
        """Read-only view of what vCenter has for a cluster intent."""
        return observed_from(self.snapshot(intent.datacenter), intent)

    # -- any managed object

    @staticmethod
    def start_destroy(obj, name: str):
        """Destroy_Task of a VM, port group or switch."""
        with guarded(f"destroy {name}"):
            return obj.Destroy_Task()
