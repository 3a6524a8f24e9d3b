"""Pages of the notices app: the user's notices (read and unread, paged) and notification preferences."""

from django.conf import settings
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from core.views import ObjectActionView, ObjectEditView, ObjectListView
from notices import services
from notices.forms import PreferencesForm
from notices.models import Notice

SHOWN = {"unread": {"read__isnull": True}, "read": {"read__isnull": False}}


class NoticeListView(ObjectListView):
    """The user's own notices, newest first, one page at a time; all, unread or read ones."""

    template_name = "notices/notice_list.html"
    context_object_name = "notices"

    def get_queryset(self, request):
        shown = SHOWN.get(request.GET.get("show", ""), {})
        return Notice.objects.filter(user=request.user, **shown).only("subject", "url", "created", "kind", "read")

    def get_extra_context(self, request, pager) -> dict:
        show = request.GET.get("show", "")
        return {"show": show if show in SHOWN else "", "unread": services.unread_count(request.user)}


class NoticeReadView(ObjectActionView):
    """Mark one of the user's own notices read (another user's is a 404)."""

    def get_object(self, request, pk):
        return get_object_or_404(Notice, pk=pk, user=request.user)

    def perform(self, request, notice):
        return services.mark_read(notice)

    def get_success_url(self, request, notice, result=None) -> str:
        back = request.POST.get("show", "")
        return reverse("notices:list") + (f"?show={back}" if back in SHOWN else "")


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
