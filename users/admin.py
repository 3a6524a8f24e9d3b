"""Admin for API tokens (hashes only; no plaintext exists)."""

from django.contrib import admin

from users.models import APIToken, PosixAccount


@admin.register(APIToken)
class APITokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "hint", "created", "expires_at", "revoked_at", "last_used_at"]
    readonly_fields = ["token_hash", "hint", "last_used_at"]
    search_fields = ["name", "user__username"]


@admin.register(PosixAccount)
class PosixAccountAdmin(admin.ModelAdmin):
    list_display = ["user", "uid"]
    search_fields = ["user__username"]
