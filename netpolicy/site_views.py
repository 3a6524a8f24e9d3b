"""The site settings page (site admins): DNS, NTP and NFS servers, domain, address cooldown."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect

from core.views import ObjectEditView, attach_detail
from netpolicy import site
from netpolicy.ipam import site_settings
from tenants.access import staff_member_required

LIST_FIELDS = ("dns_servers", "ntp_servers", "nfs_servers")


class SiteSettingsForm(forms.Form):
    """One address (or, for NFS, network) per line; the service validates them strictly."""

    dns_servers = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="DNS servers")
    dns_domain = forms.CharField(required=False, max_length=253, label="DNS domain")
    ntp_servers = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label="NTP servers")
    nfs_servers = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                  label="NFS servers (addresses or networks)")  # fmt: skip
    address_cooldown_minutes = forms.IntegerField(min_value=0, label="Released VM addresses cool down (minutes)")

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        for field in LIST_FIELDS:
            data[field] = [line.strip() for line in data[field].splitlines() if line.strip()]
        return data


class SiteSettingsView(ObjectEditView):
    """Show and change the site's shared servers; every tenant's VMs and firewall groups use them."""

    decorators = (staff_member_required,)
    template_name = "netpolicy/site_settings.html"

    def get_form(self, request):
        self.current = current = site_settings()
        initial = {f: "\n".join(getattr(current, f)) for f in LIST_FIELDS}
        initial |= {"dns_domain": current.dns_domain, "address_cooldown_minutes": current.address_cooldown_minutes}
        return SiteSettingsForm(request.POST or None, initial=initial)

    def save(self, request, form):
        return site.update_settings(request.user, form.service_data())

    form_error = staticmethod(attach_detail)

    def saved(self, request, result):
        messages.success(request, "Site settings saved; the NFS and DNS groups and the VMs' filters follow.")
        return redirect("netpolicy:site-settings")

    def get_context(self, request, form=None) -> dict:
        return {"form": form, "settings": self.current}
