"""Form widgets shared by every app's pages."""

from django import forms


class OfferedSelect(forms.Select):
    """A select whose options the site cannot realize stay visible but disabled, with the reason as their tooltip."""

    def __init__(self, *args, unavailable: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.unavailable = unavailable or {}

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        reason = self.unavailable.get(str(value))
        if reason:
            option["attrs"] = {**option["attrs"], "disabled": True, "title": reason}
            option["label"] = f"{label} (not offered here)"
        return option


def unavailable_options(site_offers: list, field: str) -> dict[str, str]:
    """Values of a request field no registered site offers, with the first site's reason."""
    reasons: dict[str, str] = {}
    offered: set[str] = set()
    for site in site_offers:
        for (name, value), option in site.options.items():
            if name != field:
                continue
            if option.available:
                offered.add(value)
            else:
                reasons.setdefault(value, option.detail)
    return {value: reason for value, reason in reasons.items() if value not in offered}
