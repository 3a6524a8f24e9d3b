"""The audit log cannot be rewritten by the application, and the hash chain shows any rewrite by others."""

import threading

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, connections, transaction

from audit import chain
from audit.context import acting_as, system_actor
from audit.models import AuditEvent, ChainLink
from audit.services import record
from portal.dbroles import as_owner

pytestmark = pytest.mark.django_db(transaction=True)

TAMPERING = [
    "UPDATE audit_auditevent SET action = 'forged' WHERE id = {id}",
    "DELETE FROM audit_auditevent WHERE id = {id}",
    "TRUNCATE audit_auditevent",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER audit_event_no_update",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER ALL",
    "ALTER TABLE audit_auditevent ADD COLUMN forged text",
    "DROP TRIGGER audit_event_no_update ON audit_auditevent",
    "INSERT INTO audit_chainlink (seq, event_id, prev_hash, hash) VALUES (999999, {id}, 'x', 'y')",
    "UPDATE audit_chainlink SET hash = 'forged'",
    "DELETE FROM audit_chainlink",
    "TRUNCATE audit_chainlink",
]


def run_sql(sql, params=None):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


def as_privileged(sql, params=None):
    """Run SQL as the schema owner with the guard triggers lifted, as a superuser could."""
    with as_owner(), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        cursor.execute(sql, params)
        cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")


@pytest.mark.parametrize("statement", TAMPERING)
def test_the_application_role_can_neither_rewrite_nor_unprotect_the_audit_log(world, statement):
    event = AuditEvent.objects.first()
    before = AuditEvent.objects.count(), ChainLink.objects.count()
    with pytest.raises(DatabaseError, match="permission denied|must be owner"):
        run_sql(statement.format(id=event.pk))
    assert (AuditEvent.objects.count(), ChainLink.objects.count()) == before
    assert AuditEvent.objects.get(pk=event.pk).action == event.action
    assert chain.verify().ok


def test_the_application_connects_as_a_role_that_owns_nothing(world):
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
        user, superuser = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user")
        owned = cursor.fetchone()[0]
    assert user == connections["default"].settings_dict["USER"] and not superuser and owned == 0


def test_with_a_connection_pool_the_owner_block_connects_as_the_owner_and_the_app_role_after_it(pooled_connections):
    def user():
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_user")
            return cursor.fetchone()[0]

    app = connection.settings_dict["USER"]
    assert user() == app and connection.pool is not None
    with as_owner():
        assert user() != app  # a connection of the owner's own pool, not a pooled app-role one
    assert user() == app


@pytest.mark.parametrize("statement", TAMPERING[:3])
def test_the_guard_triggers_refuse_even_the_owner(world, statement):
    event = AuditEvent.objects.first()
    with pytest.raises(DatabaseError, match="append-only"), as_owner():
        run_sql(statement.format(id=event.pk))
    assert AuditEvent.objects.get(pk=event.pk).action == event.action


def test_every_committed_event_is_linked_and_the_chain_verifies(world):
    events = AuditEvent.objects.count()
    report = chain.verify()
    assert report.ok and report.links == events == ChainLink.objects.count()
    assert report.head_seq == events and report.head_hash == ChainLink.objects.get(seq=events).hash


def test_a_transactions_events_are_linked_in_order_at_commit(world):
    with transaction.atomic():
        for n in range(3):
            record(f"tenant.touch{n}", world.tenant_a)
        assert not ChainLink.objects.filter(event__action__startswith="tenant.touch").exists()
    links = ChainLink.objects.filter(event__action__startswith="tenant.touch").order_by("seq")
    assert [link.event.action for link in links] == ["tenant.touch0", "tenant.touch1", "tenant.touch2"]
    assert chain.verify().ok


def test_concurrent_writers_keep_the_chain_linear(world):
    errors = []

    def writer(n):
        try:
            with acting_as(system_actor(f"writer-{n}")):
                for i in range(5):
                    with transaction.atomic():
                        record(f"tenant.race{n}.{i}", world.tenant_a)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    seqs = list(ChainLink.objects.values_list("seq", flat=True))
    assert seqs == list(range(1, AuditEvent.objects.count() + 1))
    assert chain.verify().ok


def test_a_row_changed_behind_the_applications_back_is_the_first_broken_link(world):
    victim = AuditEvent.objects.order_by("id")[2]
    as_privileged("UPDATE audit_auditevent SET message = 'nothing to see' WHERE id = %s", [victim.pk])
    report = chain.verify()
    assert not report.ok and report.first_bad_event == victim.pk and "changed" in report.problem


def test_a_deleted_row_and_an_unlinked_row_are_reported(world):
    victim = AuditEvent.objects.order_by("id")[1]
    as_privileged("DELETE FROM audit_auditevent WHERE id = %s", [victim.pk])
    report = chain.verify()
    assert not report.ok and report.first_bad_event == victim.pk and "deleted" in report.problem


def test_an_event_slipped_in_without_a_link_is_reported(world):
    as_privileged(
        "INSERT INTO audit_auditevent (created, actor_kind, actor_label, action, object_type, object_id,"
        " object_repr, message, request_id, client_request_id) VALUES"
        " (now(), 'system', 'ghost', 'tenant.forged', 'tenants.tenant', '1', 'x', '', '', '')"
    )
    report = chain.verify()
    forged = AuditEvent.objects.get(action="tenant.forged")
    assert not report.ok and report.first_bad_event == forged.pk and "not on the chain" in report.problem


def test_audit_verify_reports_the_first_broken_link_and_fails(world, capsys):
    call_command("audit_verify")
    assert "OK" in capsys.readouterr().out
    victim = AuditEvent.objects.order_by("id")[0]
    as_privileged("UPDATE audit_auditevent SET actor_label = 'someone else' WHERE id = %s", [victim.pk])
    with pytest.raises(SystemExit) as exit_info:
        call_command("audit_verify")
    out = capsys.readouterr()
    assert exit_info.value.code == 1 and f"event {victim.pk}" in out.out + out.err
    assert chain.status()["full"].ok is False


def test_the_audit_page_shows_the_chain_status(world, client):
    call_command("audit_verify")
    client.force_login(world.admin)
    page = client.get("/audit/").content.decode()
    assert "Hash chain" in page and "verified" in page
