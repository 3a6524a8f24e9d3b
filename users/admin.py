"""Admin for users, groups, API tokens and POSIX accounts: every change here is audited."""

from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin, AccessLogAdmin
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.db import transaction

from audit.admin_base import AuditedAdmin
from audit.services import record
from core.admin import ReadOnlyAdmin
from users.models import APIToken, PosixAccount
from users.services import revoke_all_tokens


@admin.register(APIToken)
class APITokenAdmin(ReadOnlyAdmin):
    """Tokens are created and revoked by their owners (API, tokens page); admins look."""

    list_display = ["name", "user", "scope", "hint", "created", "expires_at", "revoked_at", "last_used_at"]
    search_fields = ["name", "user__username"]


@admin.register(PosixAccount)
class PosixAccountAdmin(AuditedAdmin):
    list_display = ["user", "uid"]
    search_fields = ["user__username"]


admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class AuditedUserAdmin(AuditedAdmin, UserAdmin):
    """Users: is_staff, is_superuser, groups and permissions changes audited; deactivation revokes tokens."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change and "is_active" in form.changed_data and not form.instance.is_active:
            revoke_all_tokens(form.instance, "account deactivated in the Django admin")

    def user_change_password(self, request, id, form_url=""):
        """Audit the password change and revoke the user's tokens (sessions end by Django's session hash)."""
        with transaction.atomic():
            response = super().user_change_password(request, id, form_url)
            if request.method == "POST" and response.status_code == 302:
                user = User.objects.get(pk=id)
                record("admin.password_change", user, message="Django admin: password changed")
                revoke_all_tokens(user, "password changed in the Django admin")
        return response


@admin.register(Group)
class AuditedGroupAdmin(AuditedAdmin, GroupAdmin):
    pass


# django-axes: deleting an attempt unlocks an account, which is audited; the logs are read-only.
for model in (AccessAttempt, AccessLog, AccessFailureLog):
    if admin.site.is_registered(model):
        admin.site.unregister(model)


@admin.register(AccessAttempt)
class AuditedAccessAttemptAdmin(AuditedAdmin, AccessAttemptAdmin):
    pass


@admin.register(AccessLog)
class ReadOnlyAccessLogAdmin(ReadOnlyAdmin, AccessLogAdmin):
    pass


@admin.register(AccessFailureLog)
class ReadOnlyAccessFailureLogAdmin(ReadOnlyAdmin, AccessFailureLogAdmin):
    pass
