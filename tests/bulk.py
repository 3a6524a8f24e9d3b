"""Bulk rows for the query-count tests: N objects of a kind in a few INSERTs (tenant A's, visible to
its owner and to site admins), so 1,000 rows cost milliseconds, not the services' audited path."""

import datetime

from django.contrib.auth import get_user_model
from django.utils import timezone

from agents.models import JoinToken, Node, NodePool, PoolSubnet, SegmentPool
from audit.models import AuditEvent
from catalog import fields as grammar
from catalog.models import CatalogItem, CatalogItemVersion, ClusterOrigin
from netpolicy.models import FirewallPolicy, FirewallRule, Group, Pool, Segment, Service
from notices.models import Notice
from tenants.models import LeaseExtension, Membership, Quota, Tenant, VirtualCluster
from users.models import APIToken
from vsphere.models import (
    DPU,
    DeviceAssignment,
    Host,
    HostFeatures,
    OperationLog,
    PCIDevice,
    PhysicalFunction,
    VCenter,
    VFAssignment,
    VGPUProfile,
)


def group_rules(world, n):
    from identity.models import GroupRule

    rules = [GroupRule(group=f"hpc-g{i}", action="member", tenant_slug="tenant-a") for i in range(n)]
    GroupRule.objects.bulk_create(rules)


def tenants(world, n):
    made = Tenant.objects.bulk_create([Tenant(slug=f"bulk-{i}", name=f"Bulk {i}") for i in range(n)])
    Quota.objects.bulk_create([Quota(tenant=t) for t in made])
    Membership.objects.bulk_create([Membership(tenant=t, user=world.owner_a, role="owner") for t in made])
    return made


def users(world, n):
    return get_user_model().objects.bulk_create([get_user_model()(username=f"bulk-user-{i}") for i in range(n)])


def memberships(world, n):
    Membership.objects.bulk_create([Membership(tenant=world.tenant_a, user=u) for u in users(world, n)])


def clusters(world, n, tenant=None):
    """n clusters of tenant A (or this tenant), each waiting for approval and for a lease extension."""
    tenant = tenant or world.tenant_a
    lease = timezone.localdate() + datetime.timedelta(days=30)
    VirtualCluster.objects.bulk_create([
        VirtualCluster(tenant=tenant, name=f"c{i}", workload_class="parallel-distributed", worker_count=2,
                       vcpus_per_node=4, memory_gb_per_node=8, lease_end=lease, justification="bulk",
                       requested_by=world.member_a, state=state)
        for i in range(n) for state in ["submitted" if i % 2 else "endorsed"]
    ])  # fmt: skip
    created = VirtualCluster.objects.filter(tenant=tenant)
    # Each waits for a lease extension too, and every user has a notice per cluster (home, approvals).
    LeaseExtension.objects.bulk_create([
        LeaseExtension(cluster=c, lease_end=lease + datetime.timedelta(days=900), justification="bulk",
                       requested_by=world.member_a) for c in created
    ])  # fmt: skip
    Notice.objects.bulk_create([
        Notice(user=user, kind="cluster", subject=f"bulk {c.pk}", url=f"/clusters/{c.pk}/")
        for c in created for user in (world.admin, world.owner_a)
    ])  # fmt: skip
    return created


def events(world, n):
    AuditEvent.objects.bulk_create([
        AuditEvent(actor_kind="user", actor_label="owner-a", actor=world.owner_a, tenant_id=world.tenant_a.pk,
                   action="bulk.create", object_type="tests.bulk", object_id=str(i), object_repr=f"bulk {i}",
                   after={"i": i})
        for i in range(n)
    ])  # fmt: skip


def notices(world, n):
    """n notices each for tenant A's owner and the site admin, every third one read."""
    from django.utils import timezone

    from notices.models import Notice

    Notice.objects.bulk_create([
        Notice(user=user, kind="cluster", subject=f"tenant-a/c{i} submitted", url="/clusters/",
               read=timezone.now() if i % 3 == 0 else None)
        for user in (world.owner_a, world.admin) for i in range(n)
    ])  # fmt: skip


def tokens(world, n):
    APIToken.objects.bulk_create([APIToken(user=world.owner_a, name=f"t{i}", token_hash=f"{i:064x}", hint=f"enc_{i}")
                                  for i in range(n)])  # fmt: skip


def node_pools(world, n):
    pools = NodePool.objects.bulk_create([NodePool(name=f"p{i}") for i in range(n)])
    PoolSubnet.objects.bulk_create([PoolSubnet(pool=p, cidr="10.0.0.0/24", dstport=4789) for p in pools])
    return pools


def nodes(world, n):
    pool = NodePool.objects.create(name="bulk-rack")
    Node.objects.bulk_create([Node(name=f"n{i}", pool=pool, interfaces=[{"name": "em1", "address": "10.0.0.5/24"}])
                              for i in range(n)])  # fmt: skip
    expires = timezone.now() + datetime.timedelta(hours=1)
    JoinToken.objects.bulk_create([JoinToken(pool=pool, token_hash=f"{i:064x}", hint=f"encj_{i}", expires_at=expires)
                                   for i in range(n)])  # fmt: skip


def vsphere(world, n):
    vcenters = VCenter.objects.bulk_create([
        VCenter(name=f"vc{i}", host="127.0.0.1", username="u", password="p", datacenter="DC0",
                compute_cluster="C0", template="t") for i in range(n)])  # fmt: skip
    hosts = Host.objects.bulk_create([Host(vcenter=vcenters[0], name=f"esx-{i}", compute_cluster="C0")
                                      for i in range(n)])  # fmt: skip
    pfs = PhysicalFunction.objects.bulk_create([
        PhysicalFunction(host=h, pci_id="0000:3b:00.0", pnic="vmnic2", firmware_num_vfs=16, max_vfs=8) for h in hosts
    ])  # fmt: skip
    cluster = clusters(world, 1).first()
    VFAssignment.objects.bulk_create([VFAssignment(pf=pf, slot=0, cluster=cluster, node_name=f"vm{i}")
                                      for i, pf in enumerate(pfs)])  # fmt: skip
    OperationLog.objects.bulk_create([OperationLog(cluster=cluster, generation=1, key=f"k{i}", step="s",
                                                   status="done") for i in range(n)])  # fmt: skip


def netpolicy(world, n):
    """Pools, segments (half requested, each by tenant A's member), services; groups, policies and rules spread
    over tenants of tenant A's owner, fifty each (one tenant's lint compares every pair of its rules)."""
    vlans = Pool.objects.create(name="bulk-vlans", kind="vlan", first=1, last=4094)
    v4 = Pool.objects.create(name="bulk-v4", kind="ipv4", cidr="10.0.0.0/8", default_prefix_length=26)
    Pool.objects.bulk_create([Pool(name=f"bulk-vni-{i}", kind="vni", first=100 + 10 * i, last=109 + 10 * i)
                              for i in range(n)])  # fmt: skip
    Segment.objects.bulk_create([
        Segment(tenant=world.tenant_a, name=f"s{i}", kind="vlan", id_pool=vlans, vlan_id=1 + i, prefix_pool=v4,
                subnet=f"10.{i >> 10}.{(i >> 2) & 255}.{(i & 3) * 64}/26", gateway="10.0.0.1",
                state="requested" if i % 2 else "approved", requested_by=world.member_a)
        for i in range(n)
    ])  # fmt: skip
    Service.objects.bulk_create([Service(name=f"svc{i}", protocol="tcp", ports=str(1000 + i)) for i in range(n)])
    owned = tenants(world, max(1, n // 50))
    groups = Group.objects.bulk_create([
        Group(tenant=owned[i % len(owned)], name=f"g{i}", cidrs=[f"10.{9 + (i >> 8)}.{i & 255}.0/24"]) for i in range(n)
    ])  # fmt: skip
    policies = FirewallPolicy.objects.bulk_create([FirewallPolicy(tenant=t, name="bulk", category="environment",
                                                                  sequence=50) for t in owned])  # fmt: skip
    FirewallPolicy.objects.bulk_create([FirewallPolicy(tenant=world.tenant_a, name=f"bulk{i}", category="application",
                                                       sequence=200 + i) for i in range(n)])  # fmt: skip
    made = FirewallRule.objects.bulk_create([FirewallRule(policy=policies[i % len(owned)], name=f"r{i}", sequence=i,
                                                          action="drop") for i in range(n)])  # fmt: skip
    through = FirewallRule.sources.through
    through.objects.bulk_create([through(firewallrule=r, group=g) for r, g in zip(made, groups, strict=True)])


A100, A100_TYPE = 0x20F1, 0x20F1 << 16 | 0x10DE  # NVIDIA A100: PCI device id, vSphere's device type


def devices(world, n):
    """n hosts over a vCenter per hundred, each with a whole GPU and a vGPU-mode GPU held by a cluster of
    tenant A, a DPU and its features; ten vGPU profiles per vCenter, as one GPU model has (the offers weigh
    every profile against every host: a thousand of each would time the test, not count its queries)."""
    vcenters = VCenter.objects.bulk_create([
        VCenter(name=f"gpu{i}", host="127.0.0.1", username="u", password="p", datacenter="DC0",
                compute_cluster="C0", template="t") for i in range(max(1, n // 100))])  # fmt: skip
    hosts = Host.objects.bulk_create([Host(vcenter=vcenters[i % len(vcenters)], name=f"gpu-esx-{i}",
                                           compute_cluster="C0") for i in range(n)])  # fmt: skip
    HostFeatures.objects.bulk_create([HostFeatures(host=h, pvrdma_vmknic="vmk1", pvrdma_vmknic_exists=True,
                                                   pvrdma_firewall=i % 2 == 0, network_offload=True)
                                      for i, h in enumerate(hosts)])  # fmt: skip
    DPU.objects.bulk_create([DPU(host=h, dpu_id=f"dpu-{i}", model="BlueField-2", pnic="vmnic4")
                             for i, h in enumerate(hosts)])  # fmt: skip
    profiles = VGPUProfile.objects.bulk_create([
        VGPUProfile(vcenter=vc, name=f"grid_a100-{i}c", device_vendor_id=A100_TYPE, gpu_model="A100",
                    framebuffer_gib=20, per_gpu=2) for vc in vcenters for i in range(10)])  # fmt: skip
    gpu = {"kind": "gpu", "vendor_id": 0x10DE, "device_id": A100, "device_name": "NVIDIA A100", "memory_gib": 40}
    whole = PCIDevice.objects.bulk_create([PCIDevice(host=h, pci_id="0000:af:00.0", mode="passthrough", **gpu)
                                           for h in hosts])  # fmt: skip
    shared = PCIDevice.objects.bulk_create([PCIDevice(host=h, pci_id="0000:b0:00.0", mode="vgpu", **gpu)
                                            for h in hosts])  # fmt: skip
    cluster = _cluster(world, "gpu-bulk")
    by_vcenter = {p.vcenter_id: p for p in profiles}
    DeviceAssignment.objects.bulk_create(
        [DeviceAssignment(device=d, slot=0, cluster=cluster, node_name=f"w{i}") for i, d in enumerate(whole)]
        + [DeviceAssignment(device=d, profile=by_vcenter[h.vcenter_id], slot=0, cluster=cluster, node_name=f"w{i}")
           for i, (d, h) in enumerate(zip(shared, hosts, strict=True))]
    )  # fmt: skip


def catalog(world, n):
    """n items (every third retired; half shown to tenant A only, with n other tenants on the first) with a
    version each, and n requests of tenant A from them; on n GPU hosts (the item form lists the site's offers)."""
    devices(world, n)
    items = CatalogItem.objects.bulk_create([
        CatalogItem(slug=f"bulk-{i}", visibility="tenants" if i % 2 else "all", active=i % 3 != 2) for i in range(n)
    ])  # fmt: skip
    rules = grammar.normalize({
        "workload_class": {"value": "ml"}, "worker_count": {"value": 2}, "vcpus_per_node": {"value": 8},
        "memory_gb_per_node": {"value": 32}, "gpu_mode": {"value": "vgpu"}, "gpus_per_worker": {"value": 1},
        "vgpu_profile": {"value": "grid_a100-0c", "editable": True, "choices": ["grid_a100-0c", "grid_a100-1c"]},
    })  # fmt: skip
    versions = CatalogItemVersion.objects.bulk_create([
        CatalogItemVersion(item=item, number=1, name=f"Bulk {i}", summary="bulk", rules=rules, created_by=world.admin)
        for i, item in enumerate(items)
    ])  # fmt: skip
    for item, version in zip(items, versions, strict=True):
        item.current = version
    CatalogItem.objects.bulk_update(items, ["current"])
    shown = CatalogItem.tenants.through
    shown.objects.bulk_create([shown(catalogitem=item, tenant=world.tenant_a) for item in items[1::2]]
                              + [shown(catalogitem=items[1], tenant=t) for t in tenants(world, n)])  # fmt: skip
    made = VirtualCluster.objects.bulk_create([_cluster(world, f"from-item-{i}", save=False) for i in range(n)])
    ClusterOrigin.objects.bulk_create([ClusterOrigin(cluster=c, version=v, values={"vgpu_profile": "grid_a100-0c"})
                                       for c, v in zip(made, versions, strict=True)])  # fmt: skip


def catalog_versions(world, n, slug="bulk-versions"):
    """An item with n versions by the site admin, each with a request of tenant A (the item's page lists them)."""
    rules = grammar.normalize({"workload_class": {"value": "ml"}, "worker_count": {"value": 2},
                               "vcpus_per_node": {"value": 8}, "memory_gb_per_node": {"value": 32}})  # fmt: skip
    item = CatalogItem.objects.create(slug=slug, visibility="all", active=True)
    versions = CatalogItemVersion.objects.bulk_create([
        CatalogItemVersion(item=item, number=i + 1, name=f"Bulk v{i + 1}", summary="bulk", rules=rules,
                           created_by=world.admin) for i in range(n)])  # fmt: skip
    item.current = versions[-1]
    item.save(update_fields=["current"])
    made = VirtualCluster.objects.bulk_create([_cluster(world, f"{slug}-{i}", save=False) for i in range(n)])
    origins = [ClusterOrigin(cluster=c, version=v) for c, v in zip(made, versions, strict=True)]
    ClusterOrigin.objects.bulk_create(origins)
    return item


def _cluster(world, name, save=True):
    lease = timezone.localdate() + datetime.timedelta(days=30)
    cluster = VirtualCluster(tenant=world.tenant_a, name=name, workload_class="ml", worker_count=2, vcpus_per_node=4,
                             memory_gb_per_node=8, lease_end=lease, justification="bulk", requested_by=world.member_a,
                             state="submitted")  # fmt: skip
    if save:
        cluster.save()
    return cluster


def cluster_history(world, n):
    """A live cluster with a resize being applied and n resizes in its history (the cluster page)."""
    cluster = _cluster(world, "resized", save=False)
    cluster.state, cluster.generation, cluster.observed_generation = "ready", n + 1, n
    cluster.save()
    AuditEvent.objects.bulk_create([
        AuditEvent(actor_kind="user", actor_label="owner-a", actor=world.owner_a, tenant_id=world.tenant_a.pk,
                   action="cluster.resize", object_type="tenants.virtualcluster", object_id=str(cluster.pk),
                   object_repr=str(cluster), before={"worker_count": i, "generation": i},
                   after={"worker_count": i + 1, "generation": i + 1})
        for i in range(1, n + 1)
    ])  # fmt: skip


def node_report(world, n):
    """A node whose last report names n tenants (the node page)."""
    made = tenants(world, n)
    pool = NodePool.objects.create(name="bulk-rack")
    report = {"generation": 2, "tenants": {str(t.pk): {"status": "failed", "errors": ["e"]} for t in made}}
    Node.objects.create(name="reporter", pool=pool, last_report=report, capabilities={"vrf": True, "kernel": "6.1"},
                        desired_generation=3, applied_generation=2)  # fmt: skip


def segment_nodes(world, n):
    """An overlay segment of tenant A on a node pool of n nodes that reported it (the segment page)."""
    vnis = Pool.objects.create(name="bulk-vnis", kind="vni", first=5000, last=5999)
    v4 = Pool.objects.create(name="bulk-v4", kind="ipv4", cidr="10.0.0.0/8", default_prefix_length=26)
    pool = NodePool.objects.create(name="bulk-rack")
    segment = Segment.objects.create(tenant=world.tenant_a, name="uvn", kind="overlay", id_pool=vnis, vni=5000,
                                     prefix_pool=v4, subnet="10.0.0.0/26", gateway="10.0.0.1",
                                     state="approved")  # fmt: skip
    SegmentPool.objects.create(segment=segment, pool=pool)
    report = {"generation": 2, "tenants": {str(world.tenant_a.pk): {"status": "ready", "errors": []}}}
    Node.objects.bulk_create([Node(name=f"n{i}", pool=pool, status="ready", last_report=report, desired_generation=2,
                                   applied_generation=2) for i in range(n)])  # fmt: skip


def nsx_objects(world, n):
    """n objects in one NSX Manager, a tenth of them tenant A's."""
    from nsx.models import NsxManager, NsxObject

    vcenter = VCenter.objects.create(name="nsx-bulk", host="127.0.0.1", username="u", password="p",
                                     datacenter="DC0", compute_cluster="C0", template="t")  # fmt: skip
    manager = NsxManager.objects.create(url="https://127.0.0.1:9", username="u", password="p",
                                        transport_zone_path="/infra/tz")  # fmt: skip
    VCenter.objects.filter(pk=vcenter.pk).update(nsx=manager)
    NsxObject.objects.bulk_create([
        NsxObject(manager=manager, tenant=world.tenant_a if i % 10 == 0 else None, kind="group",
                  path=f"/infra/domains/default/groups/enclave-bulk-{i}") for i in range(n)])  # fmt: skip


def nsx_managers(world, n):
    """n vCenters, each with its NSX Manager."""
    from nsx.models import NsxManager

    vcenters = VCenter.objects.bulk_create([VCenter(name=f"nsx{i}", host="127.0.0.1", username="u", password="p",
                                                    datacenter="DC0", compute_cluster="C0", template="t")
                                            for i in range(n)])  # fmt: skip
    managers = NsxManager.objects.bulk_create([
        NsxManager(url="https://127.0.0.1:9", username="u", password="p", transport_zone_path="/infra/tz")
        for _ in vcenters])  # fmt: skip
    for vc, manager in zip(vcenters, managers, strict=True):
        vc.nsx = manager
    VCenter.objects.bulk_update(vcenters, ["nsx"])


def webhooks(world, n):
    """n webhooks of n tenants (tenant A's first) and n deliveries of tenant A's webhook."""
    from webhooks.models import Delivery, Webhook, WebhookSecret

    owned = Tenant.objects.bulk_create([Tenant(slug=f"wh{i}", name=f"WH {i}") for i in range(n - 1)])
    hooks = Webhook.objects.bulk_create([
        Webhook(tenant=tenant, name="ci", url=f"https://hooks.example.org/{i}", events=["cluster.state_changed"])
        for i, tenant in enumerate([world.tenant_a, *owned])])  # fmt: skip
    WebhookSecret.objects.bulk_create([WebhookSecret(webhook=h, secret="x", hint="abcd") for h in hooks])
    Delivery.objects.bulk_create([Delivery(webhook=hooks[0], tenant=world.tenant_a, event_type="webhook.test",
                                           payload={"i": i}, state="failed") for i in range(n)])  # fmt: skip


def fabrics(world, n):
    """n InfiniBand fabrics, each with a shared port, a join token and tenant A's partition key."""
    from fabrics.models import Fabric, FabricJoinToken, PartitionKey, SharedPort

    now = timezone.now()
    made = Fabric.objects.bulk_create([Fabric(name=f"ib-{i}") for i in range(n)])
    SharedPort.objects.bulk_create([SharedPort(fabric=f, guid=f"0x00000000{i + 1:08x}") for i, f in enumerate(made)])
    FabricJoinToken.objects.bulk_create([FabricJoinToken(fabric=f, token_hash=f"{i:064x}", hint="encfj_x",
                                                         expires_at=now) for i, f in enumerate(made)])  # fmt: skip
    PartitionKey.objects.bulk_create([PartitionKey(fabric=f, tenant=world.tenant_a, pkey=0x100, allocated=now)
                                      for f in made])  # fmt: skip


def fabric_partitions(world, n):
    """Fabric "big" with n tenants' partitions on it."""
    from fabrics.models import Fabric, PartitionKey

    now, fabric = timezone.now(), Fabric.objects.create(name="big")
    made = Tenant.objects.bulk_create([Tenant(slug=f"ib-{i}", name=f"IB {i}") for i in range(n)])
    PartitionKey.objects.bulk_create([PartitionKey(fabric=fabric, tenant=t, pkey=0x100 + i, allocated=now)
                                      for i, t in enumerate(made)])  # fmt: skip
