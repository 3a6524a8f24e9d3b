"""API serializers of the users app."""

from rest_framework import serializers

from users.models import APIToken


class TokenSerializer(serializers.ModelSerializer):
    is_active = serializers.BooleanField(read_only=True)
    expires_at = serializers.DateTimeField(
        required=False, allow_null=True,
        help_text="Defaults to the site's default lifetime; never beyond its maximum, nor beyond the creating token.",
    )  # fmt: skip

    class Meta:
        model = APIToken
        fields = ["id", "name", "scope", "hint", "created", "expires_at", "revoked_at", "last_used_at", "is_active"]
        read_only_fields = ["hint", "created", "revoked_at", "last_used_at"]
        validators = []

    def validate_name(self, value):
        user = self.context["request"].user
        if APIToken.objects.filter(user=user, name=value).exists():
            raise serializers.ValidationError("You already have a token with this name.")
        return value


class CreatedTokenSerializer(TokenSerializer):
    """The answer to a token's creation: the only time its plaintext is shown."""

    token = serializers.CharField(read_only=True, help_text="Plaintext, returned only on creation")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


class MembershipBriefSerializer(serializers.Serializer):
    tenant = serializers.IntegerField(source="tenant_id")
    slug = serializers.CharField(source="tenant.slug")
    role = serializers.CharField()


class MeSerializer(serializers.Serializer):
    """Who the caller is: the account, its tenants and roles, and the token it came with (if any)."""

    username = serializers.CharField()
    full_name = serializers.CharField(source="get_full_name")
    email = serializers.EmailField()
    is_site_admin = serializers.BooleanField(source="is_staff")
    memberships = MembershipBriefSerializer(many=True)
    token = TokenSerializer(allow_null=True)
