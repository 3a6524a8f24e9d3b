"""API serializers of the nsx app; writes go through nsx.services."""

from rest_framework import serializers
from rest_framework.validators import UniqueValidator

from nsx.models import NsxManager, NsxObject


class NsxManagerSerializer(serializers.ModelSerializer):
    """An NSX Manager; the password is write-only and stored encrypted."""

    password = serializers.CharField(
        write_only=True, required=False, allow_blank=True, style={"input_type": "password"},
        help_text="Write-only; encrypted at rest. Leave out on update to keep the current one.",
    )  # fmt: skip
    # The link is vsphere.VCenter.nsx (reverse "vcenter"); its model is reached through it, not imported.
    vcenter = serializers.PrimaryKeyRelatedField(
        queryset=NsxManager._meta.get_field("vcenter").related_model.objects.all(),
        validators=[UniqueValidator(queryset=NsxManager.objects.all())],
    )

    class Meta:
        model = NsxManager
        fields = ["id", "vcenter", "url", "username", "password", "verify_tls", "ca_bundle", "transport_zone_path",
                  "tier0_path", "domain", "check_result", "check_message", "checked_at"]  # fmt: skip
        read_only_fields = ["check_result", "check_message", "checked_at"]
        extra_kwargs = {"verify_tls": {"required": False, "help_text": "On by default; off only in labs"}}


class NsxCheckQueuedSerializer(serializers.Serializer):
    detail = serializers.CharField()
    manager = serializers.IntegerField()


class NsxObjectSerializer(serializers.ModelSerializer):
    """One object Enclave owns in NSX and what NSX's realized-state API last said of it."""

    class Meta:
        model = NsxObject
        fields = ["id", "manager", "tenant", "segment", "path", "kind", "state", "message", "updated"]
