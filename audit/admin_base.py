"""The audited model admin: every change the Django admin makes is audited (read-only admins: core.admin)."""

from django.contrib import admin
from django.db import transaction

from audit.services import record, snapshot


def _tenant_of(obj):
    return getattr(obj, "tenant_id", None)


def _relations(obj) -> dict:
    """Many-to-many values (a user's groups and permissions) by field name, as sorted ids."""
    if obj.pk is None:
        return {}
    return {f.name: sorted(getattr(obj, f.name).values_list("pk", flat=True)) for f in obj._meta.many_to_many}


class AuditedAdmin(admin.ModelAdmin):
    """Every add, change (many-to-many included) and delete made here is audited with before/after."""

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            old = type(obj).objects.filter(pk=obj.pk).first() if change else None
            before = snapshot(old) | _relations(old) if old is not None else None
            request._audit_before, request._audit_pending = before, True
            super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            if not getattr(request, "_audit_pending", False):
                return  # a subclass saved through a service, which audited the change itself
            request._audit_pending = False
            obj, before = form.instance, request._audit_before
            after = snapshot(obj) | _relations(obj)
            changed = sorted(k for k in after if before is None or before.get(k) != after[k])
            action = "admin.change" if change else "admin.add"
            record(action, obj, before=before, after=after, tenant=_tenant_of(obj),
                   message=f"Django admin: {', '.join(changed) or 'no fields'} changed")  # fmt: skip

    def delete_model(self, request, obj):
        with transaction.atomic():
            record("admin.delete", obj, before=snapshot(obj) | _relations(obj), tenant=_tenant_of(obj),
                   message="Django admin: deleted")  # fmt: skip
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for obj in queryset:
                record("admin.delete", obj, before=snapshot(obj) | _relations(obj), tenant=_tenant_of(obj),
                       message="Django admin: deleted (bulk)")  # fmt: skip
            super().delete_queryset(request, queryset)
