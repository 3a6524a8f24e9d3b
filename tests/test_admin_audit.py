"""The Django admin: every registered model is read-only there, or every change made there is audited."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.test import RequestFactory

from audit.admin_base import AuditedAdmin
from audit.models import AuditEvent
from users.models import APIToken
from users.services import create_token

pytestmark = pytest.mark.django_db


def test_every_admin_model_is_read_only_or_audited(world):
    request = RequestFactory().get("/admin/")
    request.user = User(is_staff=True, is_superuser=True, is_active=True)
    unaudited = []
    for model, model_admin in admin.site._registry.items():
        if isinstance(model_admin, AuditedAdmin):
            continue
        if any((model_admin.has_add_permission(request), model_admin.has_change_permission(request),
                model_admin.has_delete_permission(request))):  # fmt: skip
            unaudited.append(model._meta.label)
    assert not unaudited, f"admin models that change things without an audit trail: {unaudited}"


def _superuser(client, world):
    world.admin.is_superuser = True
    world.admin.save()
    client.force_login(world.admin)
    return client


def _user_form(user, **changes):
    data = {"username": user.username, "email": user.email, "first_name": "", "last_name": "",
            "is_active": "on" if user.is_active else "", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00",
            "initial-date_joined_0": "2026-01-01", "initial-date_joined_1": "00:00:00"}  # fmt: skip
    if user.is_staff:
        data["is_staff"] = "on"
    data.update(changes)
    return {k: v for k, v in data.items() if v != ""}


def test_granting_staff_and_superuser_in_the_admin_is_audited_with_before_and_after(world, client):
    client = _superuser(client, world)
    target = world.member_a
    group = Group.objects.create(name="operators")
    form = _user_form(target, is_staff="on", is_superuser="on", groups=str(group.pk))
    response = client.post(f"/admin/auth/user/{target.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    event = AuditEvent.objects.get(action="admin.change", object_type="auth.user", object_id=str(target.pk))
    assert event.before["is_staff"] is False and event.after["is_staff"] is True
    assert event.before["is_superuser"] is False and event.after["is_superuser"] is True
    assert event.after["groups"] == [group.pk] and event.after["password"] == "********"
    assert event.actor_id == world.admin.pk and "is_superuser" in event.message


def test_deactivating_a_user_in_the_admin_revokes_their_tokens(world, client):
    client = _superuser(client, world)
    token, _ = create_token(world.member_a, "ci")
    response = client.post(f"/admin/auth/user/{world.member_a.pk}/change/", _user_form(world.member_a, is_active=""))
    assert response.status_code == 302
    assert APIToken.objects.get(pk=token.pk).revoked_at is not None
    assert AuditEvent.objects.filter(action="token.revoke", message__contains="deactivated").count() == 1


def test_a_password_change_in_the_admin_is_audited_and_revokes_tokens(world, client):
    client = _superuser(client, world)
    token, _ = create_token(world.member_a, "ci")
    url = f"/admin/auth/user/{world.member_a.pk}/password/"
    response = client.post(url, {"password1": "a-long-new-passphrase-1", "password2": "a-long-new-passphrase-1",
                                 "usable_password": "true"})  # fmt: skip
    assert response.status_code == 302
    assert AuditEvent.objects.filter(action="admin.password_change", object_id=str(world.member_a.pk)).exists()
    assert APIToken.objects.get(pk=token.pk).revoked_at is not None


def test_deleting_in_the_admin_is_audited(world, client):
    client = _superuser(client, world)
    group = Group.objects.create(name="gone")
    response = client.post(f"/admin/auth/group/{group.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert AuditEvent.objects.get(action="admin.delete", object_type="auth.group").before["name"] == "gone"
