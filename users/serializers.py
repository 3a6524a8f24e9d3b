"""API serializers of the users app."""

from django.utils import timezone
from rest_framework import serializers

from users.models import APIToken


class TokenSerializer(serializers.ModelSerializer):
    token = serializers.CharField(read_only=True, help_text="Plaintext, returned only on creation")
    is_active = serializers.BooleanField(read_only=True)

    class Meta:
        model = APIToken
        fields = ["id", "name", "hint", "created", "expires_at", "revoked_at", "last_used_at", "is_active", "token"]
        read_only_fields = ["hint", "created", "revoked_at", "last_used_at"]
        validators = []

    def validate_expires_at(self, value):
        if value is not None and value <= timezone.now():
            raise serializers.ValidationError("The expiry must be in the future.")
        return value

    def validate_name(self, value):
        user = self.context["request"].user
        if APIToken.objects.filter(user=user, name=value).exists():
            raise serializers.ValidationError("You already have a token with this name.")
        return value
