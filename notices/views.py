"""Pages of the notices app: the user's notification preferences."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from notices import services
from notices.forms import PreferencesForm


@login_required
def preferences(request):
    """Show and change which kinds of notice the user also gets by e-mail."""
    form = PreferencesForm(request.POST or None, initial=services.email_preferences(request.user))
    if request.method == "POST" and form.is_valid():
        services.set_email_preferences(request.user, form.cleaned_data)
        messages.success(request, "Notification preferences saved.")
        return redirect("notices:preferences")
    return render(request, "notices/preferences.html", {"form": form, "notices": services.recent(request.user, 20)})
