"""Pages of the notices app: the user's notification preferences."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from notices import services
from notices.forms import PreferencesForm


@login_required
def preferences(request):
    """The user's notices, and which kinds of them also come by e-mail."""
    if request.method == "POST" and "read_all" in request.POST:
        count = services.mark_all_read(request.user)
        messages.success(request, f"{count} notice{'s' if count != 1 else ''} marked read.")
        return redirect("notices:preferences")
    form = PreferencesForm(request.POST or None, initial=services.email_preferences(request.user))
    if request.method == "POST" and form.is_valid():
        services.set_email_preferences(request.user, form.cleaned_data)
        messages.success(request, "Notification preferences saved.")
        return redirect("notices:preferences")
    return render(request, "notices/preferences.html", {"form": form, "notices": services.recent(request.user, 50),
                                                        "unread": services.unread_count(request.user),
                                                        "retention_days": settings.NOTICE_RETENTION_DAYS})  # fmt: skip
