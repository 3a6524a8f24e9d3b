"""Seed the demo site (one site admin, two tenants with a PI and a member each) and print logins."""

import json
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from audit.context import acting_as, system_actor
from tenants import services
from tenants.choices import Role
from tenants.models import Tenant

DEMO_TENANTS = [
    ("astro", "Computational Astrophysics", "alice", "arno"),
    ("genomics", "Genomics Lab", "grace", "gus"),
]


class Command(BaseCommand):
    help = "Create the demo users and tenants (idempotent) and print the demo logins."

    def handle(self, *args, **options):
        logins_file = settings.DATA_DIR / "demo-logins.json"
        logins = json.loads(logins_file.read_text()) if logins_file.exists() else {}
        with acting_as(system_actor("seed_demo")), transaction.atomic():
            self._user(logins, "admin", staff=True)
            for slug, name, owner, member in DEMO_TENANTS:
                tenant = Tenant.objects.filter(slug=slug).first()
                if tenant is None:
                    tenant = services.create_tenant(slug, name)
                services.set_membership(tenant, self._user(logins, owner), Role.OWNER)
                services.set_membership(tenant, self._user(logins, member), Role.MEMBER)
        logins_file.parent.mkdir(parents=True, exist_ok=True)
        logins_file.write_text(json.dumps(logins, indent=1))
        logins_file.chmod(0o600)
        self._print(logins)

    def _user(self, logins: dict, username: str, staff: bool = False):
        """Create the user once with a random password kept only in the (git-ignored) data dir."""
        user_model = get_user_model()
        user = user_model.objects.filter(username=username).first()
        if user is None or username not in logins:
            logins[username] = secrets.token_urlsafe(9)
            user = user or user_model(username=username, email=f"{username}@example.org")
            user.is_staff = user.is_superuser = staff
            user.set_password(logins[username])
            user.save()
        return user

    def _print(self, logins: dict):
        roles = {"admin": "site admin"}
        for slug, _, owner, member in DEMO_TENANTS:
            roles[owner], roles[member] = f"owner (PI) of {slug}", f"member of {slug}"
        self.stdout.write("Demo logins:")
        for username, role in roles.items():
            self.stdout.write(f"  {username:8} {logins[username]:14} {role}")
