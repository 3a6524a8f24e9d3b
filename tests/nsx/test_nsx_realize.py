"""The NSX reconciler against the stand-in, in-process: idempotence, faults at each step, checks, bad settings."""

import pytest

from core.errors import InvalidRequest
from netpolicy import propagation, segments
from netpolicy.choices import SegmentState
from netpolicy.models import Pool
from nsx import realize
from nsx import services as nsx_services
from nsx import tasks as nsx_tasks
from nsx.choices import CheckResult, Realization
from nsx.client import NsxClient, NsxError
from nsx.models import AppliedState, NsxManager, NsxObject
from nsx.tasks import check_manager
from tenants import services
from tenants.network import network_changed
from tests.nsx.nsxsim import NsxSim, free_port
from tests.vsphere.sites import make_vcenter

pytestmark = pytest.mark.django_db
INFRA = "PATCH /policy/api/v1/infra"
TZ = "/infra/sites/default/enforcement-points/default/transport-zones/tz-overlay"


@pytest.fixture(scope="module")
def nsx(tmp_path_factory):
    sim = NsxSim(tmp_path_factory.mktemp("nsx"), free_port()).start()
    yield sim
    sim.stop()


@pytest.fixture
def world(nsx, make_user):
    """A tenant with one NSX overlay segment on a vCenter whose NSX Manager is the stand-in."""
    nsx.clear_faults()
    Pool.objects.get_or_create(name="geneve", kind="vni", defaults={"first": 70000, "last": 70999})
    vcenter = make_vcenter()
    manager = NsxManager.objects.create(url=nsx.url, username=nsx.user, password=nsx.password,
                                        ca_bundle=nsx.ca_file, transport_zone_path=TZ)  # fmt: skip
    type(vcenter).objects.filter(pk=vcenter.pk).update(nsx=manager)
    admin = make_user("admin", staff=True)
    tenant = services.create_tenant(f"geo{manager.pk}", "Geo", owner=make_user("pi"))
    segment = segments.create_segment(tenant, admin, {"name": "overlay", "kind": "overlay",
                                                      "vsphere_cluster": vcenter.compute_cluster})  # fmt: skip
    yield manager, tenant, segment
    nsx.clear_faults()
    segment.state = SegmentState.RETIRED
    segment.save()
    manager.refresh_from_db()  # a test may have spoilt its copy's password or URL
    realize.realize_tenant(manager, tenant, wait=5)  # leave the shared stand-in empty for the next test


def test_a_tenant_part_is_applied_once_and_a_second_run_sends_nothing(nsx, world):
    manager, tenant, segment = world
    nsx.reset_stats()
    first = realize.realize_tenant(manager, tenant, wait=10)
    assert first.patched == 2 and first.errors == [] and first.pending == []
    assert nsx.stats().get(INFRA) == 2  # the site's part and the tenant's
    second = realize.realize_tenant(manager, tenant, wait=10)
    assert second.patched == 0 and nsx.stats().get(INFRA) == 2
    segment.refresh_from_db()
    assert segment.state == SegmentState.READY
    assert {o.state for o in NsxObject.objects.filter(tenant=tenant)} == {Realization.REALIZED}


def test_a_worker_killed_after_the_patch_sends_the_same_body_again_without_duplicates(nsx, world):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    before = nsx.objects()
    AppliedState.objects.filter(manager=manager, tenant=tenant).update(digest="")  # its commit never happened
    again = realize.realize_tenant(manager, tenant, wait=10)
    assert again.patched == 1 and nsx.objects() == before


def test_an_nsx_manager_that_answers_503_is_a_transient_error_and_the_retry_applies(nsx, world):
    manager, tenant, _segment = world
    nsx.inject({"method": "PATCH", "path": "/policy/api/v1/infra", "status": 503, "count": 1})
    with pytest.raises(NsxError) as failed:
        realize.realize_tenant(manager, tenant, wait=10)
    assert failed.value.transient and "503" in str(failed.value)
    assert realize.realize_tenant(manager, tenant, wait=10).errors == []


def test_a_lost_compare_and_set_is_read_again_and_retried(nsx, world):
    manager, tenant, _segment = world
    nsx.inject({"method": "PATCH", "path": "/policy/api/v1/infra", "status": 412, "count": 1})
    assert realize.realize_tenant(manager, tenant, wait=10).errors == []


def test_a_segment_nsx_fails_to_realize_shows_nsx_s_message_and_the_segment_is_in_error(nsx, world):
    manager, tenant, segment = world
    nsx.inject({"realize_error": f"/infra/segments/enclave-t{tenant.pk}", "message": "no host switch", "count": 1})
    outcome = realize.realize_tenant(manager, tenant, wait=10)
    assert any("no host switch" in e for e in outcome.errors)
    row = NsxObject.objects.get(segment=segment)
    assert row.state == Realization.ERROR and "no host switch" in row.message
    segment.refresh_from_db()
    assert segment.state == SegmentState.ERROR


def test_a_wrong_password_is_a_permanent_error(nsx, world):
    manager, tenant, _segment = world
    manager.password = "wrong"
    with pytest.raises(NsxError) as failed:
        realize.realize_tenant(manager, tenant, wait=5)
    assert not failed.value.transient and "401" in str(failed.value)


def test_an_unreachable_manager_is_a_transient_error(world):
    manager, tenant, _segment = world
    manager.url = f"https://127.0.0.1:{free_port()}"
    with pytest.raises(NsxError) as failed:
        realize.realize_tenant(manager, tenant, wait=5)
    assert failed.value.transient


def test_the_reachability_check_names_what_it_found_or_why_it_failed(world):
    manager, _tenant, _segment = world
    assert check_manager(manager.pk) == CheckResult.OK
    manager.refresh_from_db()
    assert "Reachable" in manager.check_message
    NsxManager.objects.filter(pk=manager.pk).update(tier0_path="/infra/tier-0s/missing")
    assert check_manager(manager.pk) == CheckResult.FAILED
    manager.refresh_from_db()
    assert "404" in manager.check_message


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("url", "http://nsx.example.org", "https"),
        ("url", "https://nsx.example.org/api;rm -rf", "https"),
        ("transport_zone_path", "/infra/../etc", "Policy path"),
        ("tier0_path", "/infra/tier-0s/t0 x", "Policy path"),
        ("domain", "default/../x", "letters"),
        ("ca_bundle", "/etc/passwd", "secrets directory"),
        ("password", "", "password"),
    ],
)
def test_bad_manager_settings_are_refused_with_a_clear_error(world, field, value, message):
    manager, _tenant, _segment = world
    with pytest.raises(InvalidRequest, match=message):
        nsx_services.update_manager(manager, {field: value})


def test_the_vcenter_page_shows_its_nsx_manager_and_queues_a_check(
    client, world, make_user, django_assert_max_num_queries
):
    manager, _tenant, _segment = world
    NsxManager.objects.filter(pk=manager.pk).update(check_result=CheckResult.FAILED, check_message="NSX said 401")
    client.force_login(make_user("root", staff=True))
    vcenter_id = manager.vcenter.pk
    with django_assert_max_num_queries(30):
        page = client.get(f"/vsphere/vcenters/{vcenter_id}/")
    assert b"NSX said 401" in page.content and b"tz-overlay" in page.content
    reply = client.post(f"/nsx/managers/{manager.pk}/check/")
    assert reply.status_code == 302
    manager.refresh_from_db()
    assert manager.check_result == CheckResult.QUEUED


@pytest.fixture
def no_leases(world, redis_client):
    """The world's parts hold no lease from an earlier test (pks repeat across test databases)."""
    manager, tenant, _segment = world
    keys = [f"enclave:lease:{nsx_tasks.LEASE}:{nsx_tasks.part(manager.pk, t)}" for t in (tenant.pk, None)]
    redis_client.delete(*keys)
    yield lambda: redis_client.delete(*keys)  # a finished run's lease lasts a grace: a test may end it sooner
    redis_client.delete(*keys)


def test_a_run_records_the_generations_it_compiled_and_the_sweep_then_leaves_the_parts_alone(nsx, world, no_leases):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    tenant.refresh_from_db()
    assert AppliedState.objects.get(manager=manager, tenant=tenant).generation == tenant.network_generation
    assert AppliedState.objects.get(manager=manager, tenant=None).generation == propagation.site_generation()
    assert nsx_tasks.sweep_behind() == 0


def test_a_policy_change_whose_queued_run_was_lost_is_found_by_the_sweep_and_applied(nsx, world, no_leases):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    network_changed([tenant])  # the change committed; its run was never queued (a lost publish)
    assert nsx_tasks.sweep_behind() == 1  # the tenant's part, queued and leased
    assert nsx_tasks.sweep_behind() == 0  # the lease keeps the next sweep off it
    nsx_tasks.reconcile_tenant.run(manager.pk, tenant.pk)  # the queued run, here in-process
    tenant.refresh_from_db()
    assert AppliedState.objects.get(manager=manager, tenant=tenant).generation == tenant.network_generation


def test_a_run_holding_an_older_compile_than_the_last_applied_sends_nothing(nsx, world):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    state = AppliedState.objects.get(manager=manager, tenant=tenant)
    AppliedState.objects.filter(pk=state.pk).update(digest="", generation=state.generation + 5)
    nsx.reset_stats()
    with NsxClient(realize.config(manager)) as client:
        stale = realize.desired_tenant(manager, tenant)
        assert realize.apply(client, manager, tenant, stale, state.generation) is False
    assert nsx.stats().get(INFRA, 0) == 0


def test_a_permanent_error_is_shown_and_not_retried_by_the_sweep_until_the_intent_moves(nsx, world, no_leases):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    network_changed([tenant])
    AppliedState.objects.filter(manager=manager, tenant=tenant).update(digest="")  # so the run must PATCH
    password = manager.password
    NsxManager.objects.filter(pk=manager.pk).update(password="wrong")  # what the task reads
    try:
        assert nsx_tasks.reconcile_tenant.run(manager.pk, tenant.pk) == "error"
    finally:
        NsxManager.objects.filter(pk=manager.pk).update(password=password)
    assert "401" in AppliedState.objects.get(manager=manager, tenant=tenant).error
    no_leases()  # as after the run's lease ran out
    assert nsx_tasks.sweep_behind() == 0  # left as it is: a person must fix the settings
    network_changed([tenant])
    assert nsx_tasks.sweep_behind() == 1  # a new change is tried again


def test_a_part_given_up_is_tried_again_once_the_managers_settings_change_or_its_check_passes(nsx, world, no_leases):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    network_changed([tenant])
    AppliedState.objects.filter(manager=manager, tenant=tenant).update(error="401", generation=10**6)  # given up
    assert nsx_tasks.sweep_behind() == 0
    nsx_services.update_manager(manager, {"username": manager.username})  # e.g. a password typed again
    assert nsx_tasks.sweep_behind() == 1  # the admin changed the settings: tried again
    no_leases()
    AppliedState.objects.filter(manager=manager, tenant=tenant).update(error="401", generation=10**6)
    assert nsx_tasks.check_manager(manager.pk) == CheckResult.OK
    assert nsx_tasks.sweep_behind() == 1  # NSX answers now: tried again


def test_one_sweep_queues_a_bounded_number_of_parts(nsx, world, no_leases, monkeypatch):
    manager, tenant, _segment = world
    realize.realize_tenant(manager, tenant, wait=10)
    network_changed([tenant])
    propagation.site_changed()  # the site's part behind too
    monkeypatch.setattr(nsx_tasks, "SWEEP_BATCH", 1)
    assert nsx_tasks.sweep_behind() == 1
    assert nsx_tasks.sweep_behind() == 1  # the other one, the first still leased
    assert nsx_tasks.sweep_behind() == 0
