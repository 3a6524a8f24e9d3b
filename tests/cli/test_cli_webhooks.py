"""Webhooks by name through the `enclave` command line: secrets shown once, test deliveries, the log, replays."""

import json
import subprocess

import pytest
import yaml
from django.db import connection

from tests.cli.conftest import cli_env, command, one_line_failure
from tests.conftest import ROOT
from webhooks import services
from webhooks.models import Delivery, Webhook, WebhookSecret

pytestmark = pytest.mark.django_db(transaction=True)

URL = "https://hooks.example.org/enclave"


def make_hook(world, name="ops", **data):
    hook, _secret = services.create_webhook(world.owner_a, world.tenant_a, {
        "name": name, "url": URL, "events": ["cluster.state_changed"], **data})  # fmt: skip
    return hook


def plaintexts(hook) -> list[str]:
    """A webhook's secrets as the sender decrypts them (webhooks.delivery)."""
    return [s.secret for s in hook.secrets.all()]  # decrypted by the field


def stored_secrets() -> list[str]:
    """The secret column as the database holds it (the model's field decrypts a layer on reading)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT secret FROM {WebhookSecret._meta.db_table}")  # noqa: S608 (the model's own table)
        return [row[0] for row in cursor.fetchall()]


def test_an_owner_creates_a_webhook_by_tenant_name_whose_secret_is_shown_once_and_stored_encrypted(
    enclave, tokens, world
):
    created = enclave("webhooks", "create", "ops", "--tenant", "tenant-a", "--url", URL, "--event",
                      "cluster.state_changed", "--event", "approval.needed", "--state", "ready", "--state", "error",
                      token=tokens["owner"])  # fmt: skip
    assert created.code == 0, created.err
    assert created.err.startswith("The signing secret is shown only now:") and len(created.err.splitlines()) == 1
    rows = dict(line.split(None, 1) for line in created.out.splitlines()[1:])
    secret = rows["SECRET"].strip()
    assert secret.startswith("whsec_") and created.out.count(secret) == 1
    assert rows["TENANT"].strip() == "tenant-a" and rows["CONDITIONS"].strip() == "states=ready,error"

    hook = Webhook.objects.get(name="ops")
    assert (hook.tenant, sorted(hook.events)) == (world.tenant_a, ["approval.needed", "cluster.state_changed"])
    assert plaintexts(hook) == [secret]
    assert stored_secrets() and not any(secret in value or secret[6:] in value for value in stored_secrets())

    listed = enclave("webhooks", "list", "-t", "tenant-a", token=tokens["owner"])
    lines = [line.split() for line in listed.out.splitlines()]
    assert lines[0][:4] == ["TENANT", "NAME", "URL", "EVENTS"]
    assert lines[1][:4] == ["tenant-a", "ops", "https://hooks.example.org/…", "approval.needed,cluster.state_changed"]
    assert secret not in listed.out and f"...{secret[-4:]}" in listed.out
    data = json.loads(enclave("webhooks", "list", "-o", "json", token=tokens["owner"]).out)
    assert [(d["name"], d["tenant"], d["enabled"]) for d in data] == [("ops", world.tenant_a.pk, True)]
    assert "secret" not in data[0] and data[0]["secrets"][0]["hint"] == secret[-4:]
    assert enclave("webhooks", "list", "-t", "tenant-b", token=tokens["owner_b"]).out.splitlines()[1:] == []


def test_json_output_of_create_includes_the_secret_once(enclave, tokens, world):
    created = enclave("webhooks", "create", "ops", "-t", "tenant-a", "--url", URL, "--event", "firewall.changed",
                      "--disabled", "-o", "json", token=tokens["owner"])  # fmt: skip
    data = json.loads(created.out)
    assert data["secret"].startswith("whsec_") and data["enabled"] is False, created.err
    assert plaintexts(Webhook.objects.get(pk=data["id"])) == [data["secret"]]


def test_an_update_changes_the_events_and_disables_and_a_rotation_gives_a_new_secret(enclave, tokens, world):
    hook = make_hook(world, conditions={"states": ["ready"]})
    updated = enclave("webhooks", "update", "ops", "-t", "tenant-a", "--event", "segment.state_changed", "--event",
                      "lease.expiring", "--disable", "--object", "tenant-a/mpi-1", "-o", "yaml",
                      token=tokens["owner"])  # fmt: skip
    assert updated.code == 0, updated.err
    shown = yaml.safe_load(updated.out)
    assert (shown["id"], shown["enabled"]) == (hook.pk, False)
    hook.refresh_from_db()
    assert sorted(hook.events) == ["lease.expiring", "segment.state_changed"] and not hook.enabled
    assert hook.conditions == {"states": ["ready"], "objects": ["tenant-a/mpi-1"]}
    [old] = plaintexts(hook)

    rotated = enclave("webhooks", "rotate-secret", "ops", "-t", "tenant-a", "-o", "json", token=tokens["owner"])
    new = json.loads(rotated.out)["secret"]
    assert rotated.code == 0 and "shown only now" in rotated.err
    assert new.startswith("whsec_") and new != old
    assert sorted(plaintexts(hook)) == sorted([old, new])
    assert not any(new in value for value in stored_secrets())

    again = enclave("webhooks", "update", "ops", "-t", "tenant-a", "--enable", "--clear-conditions",
                    token=tokens["owner"])  # fmt: skip
    hook.refresh_from_db()
    assert again.code == 0 and hook.enabled and hook.conditions == {}, again.err
    deleted = enclave("webhooks", "delete", "ops", "-t", "tenant-a", token=tokens["owner"])
    assert deleted.code == 0 and f"(id {hook.pk})" in deleted.err
    assert not Webhook.objects.filter(pk=hook.pk).exists()


def test_a_test_delivery_is_queued_and_listed_in_the_delivery_log(enclave, tokens, world):
    hook = make_hook(world)
    sent = enclave("webhooks", "test", "ops", "-t", "tenant-a", "-o", "json", token=tokens["owner"])
    assert sent.code == 0, sent.err
    delivery = Delivery.objects.get(webhook=hook, event_type="webhook.test")
    assert json.loads(sent.out)["id"] == delivery.pk and f"Queued test delivery {delivery.pk}" in sent.err

    listed = enclave("webhooks", "deliveries", "ops", "-t", "tenant-a", token=tokens["owner"])
    lines = [line.split() for line in listed.out.splitlines()]
    assert lines[0] == ["ID", "EVENT", "STATE", "ATTEMPTS", "CODE", "DURATION", "ERROR", "CREATED"]
    assert lines[1][:4] == [str(delivery.pk), "webhook.test", "pending", "0"]


def test_a_wait_follows_a_test_delivery_until_it_succeeded(live_server, config_path, tokens, world):
    hook = make_hook(world)
    env = cli_env(config_path, live_server.url, tokens["owner"])
    args = command("webhooks", "test", "ops", "--tenant", "tenant-a", "--wait", "--timeout", "60", "-o", "json")
    with subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert "Queued test delivery" in proc.stderr.readline()
        delivery = Delivery.objects.get(webhook=hook, event_type="webhook.test")
        assert f"delivery {delivery.pk}: pending" in proc.stderr.readline()
        Delivery.objects.filter(pk=delivery.pk).update(state="retrying", attempts=1, response_code=503,
                                                       last_error="HTTP 503")  # fmt: skip
        assert "retrying - attempt 1, HTTP 503: HTTP 503" in proc.stderr.readline()
        Delivery.objects.filter(pk=delivery.pk).update(state="succeeded", attempts=2, response_code=204,
                                                       duration_ms=31, last_error="")  # fmt: skip
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"delivery {delivery.pk}: succeeded - attempt 2, HTTP 204" in err
    assert (json.loads(out)["state"], json.loads(out)["duration_ms"]) == ("succeeded", 31)


def test_a_wait_on_a_delivery_nobody_sends_runs_out_of_time_in_one_line_with_exit_3(enclave, tokens, world):
    make_hook(world)
    waited = enclave("webhooks", "test", "ops", "-t", "tenant-a", "--wait", "--timeout", "1", token=tokens["owner"])
    delivery = Delivery.objects.get(event_type="webhook.test")
    assert waited.code == 3 and "Traceback" not in waited.err
    assert waited.err.strip().splitlines()[-1] == (
        f"enclave: timed out after 1s waiting for delivery {delivery.pk} to succeed or fail; it is pending"
    )


def test_a_failed_delivery_is_listed_and_replayed_with_the_same_message_id(enclave, tokens, world):
    hook = make_hook(world)
    failed = Delivery.objects.create(webhook=hook, tenant=world.tenant_a, event_type="cluster.state_changed",
                                     payload={"type": "cluster.state_changed"}, state="failed", attempts=8,
                                     response_code=500, duration_ms=12, last_error="HTTP 500")  # fmt: skip
    Delivery.objects.create(webhook=hook, tenant=world.tenant_a, event_type="cluster.state_changed", payload={})
    listed = enclave("webhooks", "deliveries", "ops", "-t", "tenant-a", "--state", "failed", "--limit", "5",
                     token=tokens["owner"])  # fmt: skip
    rows = [line.split() for line in listed.out.splitlines()[1:]]
    assert [row[:7] for row in rows] == [[str(failed.pk), "cluster.state_changed", "failed", "8", "500", "12ms",
                                          "HTTP"]], listed.err  # fmt: skip

    replayed = enclave("webhooks", "replay", str(failed.pk), "-o", "json", token=tokens["owner"])
    assert replayed.code == 0, replayed.err
    again = Delivery.objects.get(pk=json.loads(replayed.out)["id"])
    assert (again.replay_of_id, again.message_id, again.state) == (failed.pk, failed.message_id, "pending")
    assert f"a replay of delivery {failed.pk}" in replayed.err

    pending = enclave("webhooks", "replay", str(again.pk), token=tokens["owner"])
    assert one_line_failure(pending) == (
        "enclave: The delivery is pending: replay it once it has succeeded or failed. (HTTP 409)"
    )
    hidden = enclave("webhooks", "replay", str(failed.pk), token=tokens["owner_b"])
    assert one_line_failure(hidden) == f"enclave: delivery {failed.pk} was not found (HTTP 404)"


def test_a_loopback_url_is_refused_in_one_line_naming_the_url_field(enclave, tokens, world):
    refused = enclave("webhooks", "create", "ops", "-t", "tenant-a", "--url", "https://127.0.0.1/hook", "--event",
                      "firewall.changed", token=tokens["owner"])  # fmt: skip
    line = one_line_failure(refused)
    assert line.startswith("enclave: invalid request: url: ") and "(HTTP 400)" in line
    assert not Webhook.objects.exists()


def test_a_members_attempts_are_refused_in_one_line(enclave, tokens, world):
    make_hook(world)
    created = enclave("webhooks", "create", "mine", "-t", "tenant-a", "--url", URL, "--event", "firewall.changed",
                      token=tokens["member"])  # fmt: skip
    assert one_line_failure(created) == (
        "enclave: only the owners (PIs) of tenant 'tenant-a' and site admins manage its webhooks"
    )
    tested = enclave("webhooks", "test", "ops", "-t", "tenant-a", token=tokens["member"])
    assert "no webhook named 'ops' in tenant 'tenant-a'" in one_line_failure(tested)
    site = enclave("webhooks", "create", "site-ops", "--site", "--url", URL, "--event", "node.not_ready",
                   token=tokens["owner"])  # fmt: skip
    assert one_line_failure(site).startswith("enclave: site webhooks are for site admins")
    assert list(Webhook.objects.values_list("name", flat=True)) == ["ops"]
    assert not Delivery.objects.exists()


def test_a_site_admin_manages_site_webhooks_apart_from_the_tenants(enclave, tokens, world):
    make_hook(world)
    created = enclave("webhooks", "create", "ops", "--site", "--url", URL, "--event", "node.not_ready",
                      "--only-tenant", "tenant-a", "-o", "json", token=tokens["admin"])  # fmt: skip
    assert created.code == 0, created.err
    data = json.loads(created.out)
    assert (data["tenant"], data["conditions"]) == (None, {"tenants": ["tenant-a"]})
    site = enclave("webhooks", "list", "--site", token=tokens["admin"])
    assert [line.split()[:2] for line in site.out.splitlines()[1:]] == [["(site)", "ops"]]
    everything = enclave("webhooks", "list", token=tokens["admin"])
    assert sorted(line.split()[0] for line in everything.out.splitlines()[1:]) == ["(site)", "tenant-a"]
    deleted = enclave("webhooks", "delete", "ops", "--site", token=tokens["admin"])
    assert deleted.code == 0 and "of the site" in deleted.err
    assert list(Webhook.objects.values_list("tenant__slug", flat=True)) == ["tenant-a"]


def test_a_wrong_webhook_name_is_one_line_and_exit_1(enclave, tokens, world):
    make_hook(world)
    for args in (("update", "nope", "--disable"), ("deliveries", "nope"), ("rotate-secret", "nope")):
        result = enclave("webhooks", *args, "-t", "tenant-a", token=tokens["owner"])
        assert result.code == 1
        assert one_line_failure(result) == (
            "enclave: no webhook named 'nope' in tenant 'tenant-a' (enclave webhooks list shows those you manage)"
        )
    unscoped = enclave("webhooks", "delete", "ops", token=tokens["owner"])
    assert unscoped.code == 2 and "give --tenant SLUG" in unscoped.err
    assert Webhook.objects.filter(name="ops").exists()
