"""Pages of the notices app: the user's notification preferences."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect

from core.views import ObjectEditView
from notices import services
from notices.forms import PreferencesForm


class PreferencesView(ObjectEditView):
    """The user's notices, and which kinds of them also come by e-mail."""

    template_name = "notices/preferences.html"

    def post(self, request):
        if "read_all" in request.POST:
            count = services.mark_all_read(request.user)
            messages.success(request, f"{count} notice{'s' if count != 1 else ''} marked read.")
            return redirect("notices:preferences")
        return super().post(request)

    def get_form(self, request):
        return PreferencesForm(request.POST or None, initial=services.email_preferences(request.user))

    def save(self, request, form):
        return services.set_email_preferences(request.user, form.cleaned_data)

    def saved(self, request, result):
        messages.success(request, "Notification preferences saved.")
        return redirect("notices:preferences")

    def get_context(self, request, form=None) -> dict:
        return {"form": form, "notices": services.recent(request.user, 50),
                "unread": services.unread_count(request.user),
                "retention_days": settings.NOTICE_RETENTION_DAYS}  # fmt: skip
