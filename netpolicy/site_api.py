"""The site settings endpoint: everyone signed in reads the shared servers, site admins change them."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from netpolicy import site
from netpolicy.ipam import site_settings
from netpolicy.models import SiteSettings


class SiteSettingsSerializer(serializers.ModelSerializer):
    """DNS, NTP and NFS servers every tenant's VMs are given and may reach (derived site groups).

    Whitespace is not trimmed: netpolicy.site refuses it with the grammar's message.
    """

    dns_servers = serializers.ListField(
        child=serializers.CharField(max_length=45, trim_whitespace=False), required=False, max_length=16
    )
    ntp_servers = serializers.ListField(
        child=serializers.CharField(max_length=45, trim_whitespace=False), required=False, max_length=16
    )
    nfs_servers = serializers.ListField(
        child=serializers.CharField(max_length=49, trim_whitespace=False), required=False, max_length=16
    )
    updated = serializers.DateTimeField(read_only=True, allow_null=True, help_text="Null until first changed")

    class Meta:
        model = SiteSettings
        fields = ["dns_servers", "dns_domain", "ntp_servers", "nfs_servers", "address_cooldown_minutes", "updated"]
        read_only_fields = ["updated"]


class SiteSettingsView(APIView):
    """GET for everyone signed in; PUT/PATCH for site admins (validated strictly, audited)."""

    @extend_schema(responses=SiteSettingsSerializer)
    def get(self, request):
        return Response(SiteSettingsSerializer(site_settings()).data)

    @extend_schema(request=SiteSettingsSerializer, responses=SiteSettingsSerializer)
    def put(self, request):
        return self._change(request, partial=False)

    @extend_schema(request=SiteSettingsSerializer, responses=SiteSettingsSerializer)
    def patch(self, request):
        return self._change(request, partial=True)

    def _change(self, request, partial: bool):
        serializer = SiteSettingsSerializer(site_settings(), data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        return Response(SiteSettingsSerializer(site.update_settings(request.user, serializer.validated_data)).data)
