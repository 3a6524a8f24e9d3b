"""Publish the demo site's catalog items (idempotent), as the demo site admin."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from audit.context import acting_as, system_actor
from catalog import demo


class Command(BaseCommand):
    help = "Publish the demo catalog items that do not exist yet (run after seed_demo)."

    def handle(self, *args, **options):
        admin = get_user_model().objects.filter(username="admin", is_staff=True).first()
        if admin is None:
            raise CommandError("Run seed_demo first: the demo items are published by its site admin.")
        with acting_as(system_actor("seed_demo_catalog")), transaction.atomic():
            created = demo.seed(admin)
        self.stdout.write(f"catalog: {created} demo item(s) published")
