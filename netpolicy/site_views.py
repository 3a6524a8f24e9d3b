"""The site settings page (site admins): DNS, NTP and NFS servers, domain, address cooldown."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render

from core.errors import ServiceError
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


@staff_member_required
def site_settings_page(request):
    """Show and change the site's shared servers; every tenant's VMs and firewall groups use them."""
    current = site_settings()
    initial = {f: "\n".join(getattr(current, f)) for f in LIST_FIELDS}
    initial |= {"dns_domain": current.dns_domain, "address_cooldown_minutes": current.address_cooldown_minutes}
    form = SiteSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            site.update_settings(request.user, form.service_data())
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.detail)
        else:
            messages.success(request, "Site settings saved; the NFS and DNS groups and the VMs' filters follow.")
            return redirect("netpolicy:site-settings")
    return render(request, "netpolicy/site_settings.html", {"form": form, "settings": current})
