"""Webhook pages: the list with a create form, one webhook with its settings, secrets and delivery log."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.pages import attach, render_page
from core.paging import keyset, paginate
from tenants.access import is_site_admin, tenant_ids
from tenants.choices import Role
from tenants.models import Tenant
from webhooks import forms, services
from webhooks.api import managed
from webhooks.models import Delivery, Webhook


def _owned_tenants(user):
    return Tenant.objects.filter(pk__in=tenant_ids(user, Role.OWNER)).order_by("slug")


def _hook(user, pk) -> Webhook:
    """A webhook the user manages; anything else is a 404."""
    return get_object_or_404(managed(Webhook.objects.select_related("tenant"), user), pk=pk)


@login_required
def webhook_list(request):
    """The webhooks the user manages (owners: their tenants'; admins: all) and the form for a new one."""
    admin = is_site_admin(request.user)
    owned = [] if admin else _owned_tenants(request.user)
    form = forms.WebhookForm(request.POST or None, tenants=owned, site=admin)
    if request.method == "POST" and form.is_valid():
        try:
            hook, secret = services.create_webhook(request.user, form.tenant_id(), form.service_data())
        except ServiceError as exc:
            attach(form, exc)
        else:
            return render(request, "webhooks/secret.html", {"hook": hook, "secret": secret, "created": True})
    hooks = (
        managed(Webhook.objects.select_related("tenant"), request.user).defer("url").order_by("tenant__slug", "name")
    )
    pager = paginate(request, hooks)
    context = {"hooks": pager.rows, "pager": pager, "form": form, "can_create": admin or bool(owned)}
    return render_page(request, "webhooks/webhook_list.html", context, "webhooks/partials/webhook_table.html")


@login_required
def webhook_detail(request, pk):
    """Settings (edit), secrets, and the delivery log (newest first, refreshed while the page is open)."""
    hook = _hook(request.user, pk)
    form = forms.WebhookForm(request.POST or None, initial=forms.initial(hook), editing=True,
                             site=hook.tenant_id is None)  # fmt: skip
    if request.method == "POST" and form.is_valid():
        try:
            services.update_webhook(request.user, hook, form.service_data())
        except ServiceError as exc:
            attach(form, exc)
        else:
            messages.success(request, "Webhook saved.")
            return redirect("webhooks:webhook-detail", pk=hook.pk)
    log = keyset(request, Delivery.objects.filter(webhook=hook).order_by("-id"))
    context = {"hook": hook, "form": form, "secrets": hook.secrets.order_by("-created"), "deliveries": log.rows,
               "pager": log}  # fmt: skip
    return render_page(request, "webhooks/webhook_detail.html", context, "webhooks/partials/delivery_table.html")


@login_required
@require_POST
def webhook_rotate(request, pk):
    """A new secret, shown once on the answer page."""
    hook = _hook(request.user, pk)
    secret = services.rotate_secret(request.user, hook)
    return render(request, "webhooks/secret.html", {"hook": hook, "secret": secret, "created": False})


@login_required
@require_POST
def webhook_test(request, pk):
    hook = _hook(request.user, pk)
    services.send_test(request.user, hook)
    messages.success(request, "Test delivery queued: it appears in the log below.")
    return redirect("webhooks:webhook-detail", pk=hook.pk)


@login_required
@require_POST
def webhook_delete(request, pk):
    hook = _hook(request.user, pk)
    services.delete_webhook(request.user, hook)
    messages.success(request, f"Webhook {hook} deleted with its delivery log.")
    return redirect("webhooks:webhook-list")


@login_required
@require_POST
def delivery_replay(request, pk):
    """Send a finished delivery again; refused (with the reason) while it is still being tried."""
    delivery = get_object_or_404(managed(Delivery.objects.all(), request.user, "webhook__tenant"), pk=pk)
    try:
        services.replay(request.user, delivery)
        messages.success(request, f"Delivery {delivery.pk} queued again.")
    except ServiceError as exc:
        messages.error(request, exc.text)
    return redirect("webhooks:webhook-detail", pk=delivery.webhook_id)
