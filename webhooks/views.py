"""Webhook pages: the list with a create form, one webhook with its settings, secrets and delivery log."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from core.paging import keyset, paginate
from core.views import ObjectActionView, ObjectEditView
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


class WebhookListView(ObjectEditView):
    """The webhooks the user manages (owners: their tenants'; admins: all) and the form for a new one."""

    template_name = "webhooks/webhook_list.html"
    partial_name = "webhooks/partials/webhook_table.html"

    def get_form(self, request):
        admin = is_site_admin(request.user)
        self.owned = [] if admin else _owned_tenants(request.user)
        return forms.WebhookForm(request.POST or None, tenants=self.owned, site=admin)

    def save(self, request, form):
        return services.create_webhook(request.user, form.tenant_id(), form.service_data())

    def saved(self, request, result):
        hook, secret = result
        return render(request, "webhooks/secret.html", {"hook": hook, "secret": secret, "created": True})

    def get_context(self, request, form=None) -> dict:
        hooks = managed(Webhook.objects.select_related("tenant"), request.user).defer("url")
        pager = paginate(request, hooks.order_by("tenant__slug", "name"))
        can_create = is_site_admin(request.user) or bool(self.owned)
        return {"hooks": pager.rows, "pager": pager, "form": form, "can_create": can_create}


class WebhookDetailView(ObjectEditView):
    """Settings (edit), secrets, and the delivery log (newest first, refreshed while the page is open)."""

    template_name = "webhooks/webhook_detail.html"
    partial_name = "webhooks/partials/delivery_table.html"

    def get_form(self, request, pk):
        self.hook = _hook(request.user, pk)
        return forms.WebhookForm(request.POST or None, initial=forms.initial(self.hook), editing=True,
                                 site=self.hook.tenant_id is None)  # fmt: skip

    def save(self, request, form):
        return services.update_webhook(request.user, self.hook, form.service_data())

    def saved(self, request, result, pk):
        messages.success(request, "Webhook saved.")
        return redirect("webhooks:webhook-detail", pk=self.hook.pk)

    def get_context(self, request, form=None, pk=None) -> dict:
        hook = self.hook
        log = keyset(request, Delivery.objects.filter(webhook=hook).order_by("-id"))
        return {"hook": hook, "form": form, "secrets": hook.secrets.order_by("-created"), "deliveries": log.rows,
                "pager": log}  # fmt: skip


class _HookActionView(ObjectActionView):
    """A POST on a webhook the user manages."""

    def get_object(self, request, pk):
        return _hook(request.user, pk)

    def get_success_url(self, request, hook, result=None) -> str:
        return reverse("webhooks:webhook-detail", kwargs={"pk": hook.pk})


class WebhookRotateView(_HookActionView):
    """A new secret, shown once on the answer page."""

    def perform(self, request, hook):
        return services.rotate_secret(request.user, hook)

    def answer(self, request, hook, secret):
        return render(request, "webhooks/secret.html", {"hook": hook, "secret": secret, "created": False})


class WebhookTestView(_HookActionView):
    """Queue a test delivery; it appears in the log."""

    def perform(self, request, hook):
        return services.send_test(request.user, hook)

    def success_message(self, hook, result) -> str:
        return "Test delivery queued: it appears in the log below."


class WebhookDeleteView(_HookActionView):
    """Delete the webhook with its delivery log."""

    def perform(self, request, hook):
        return services.delete_webhook(request.user, hook)

    def success_message(self, hook, result) -> str:
        return f"Webhook {hook} deleted with its delivery log."

    def get_success_url(self, request, hook, result=None) -> str:
        return reverse("webhooks:webhook-list")


class DeliveryReplayView(ObjectActionView):
    """Send a finished delivery again; refused (with the reason) while it is still being tried."""

    def get_object(self, request, pk):
        return get_object_or_404(managed(Delivery.objects.all(), request.user, "webhook__tenant"), pk=pk)

    def perform(self, request, delivery):
        return services.replay(request.user, delivery)

    def success_message(self, delivery, result) -> str:
        return f"Delivery {delivery.pk} queued again."

    def get_success_url(self, request, delivery, result=None) -> str:
        return reverse("webhooks:webhook-detail", kwargs={"pk": delivery.webhook_id})
