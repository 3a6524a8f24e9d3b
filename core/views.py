"""Generic page views (after NetBox's views.generic): list, detail, edit, delete and one-POST actions.

Each page declares its template (and htmx partial), its access check (`decorators`, e.g. login_required or
tenants.access.staff_member_required) and the service it calls; a ServiceError becomes a form error or a
message here, so no page writes its own `except ServiceError`. A NotFound from a service stays a 404.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views import View

from core.errors import NotFound, ServiceError
from core.pages import attach, render_page
from core.paging import paginate


class PageView(View):
    """A page: the access check wraps the whole view; GET renders the template (or its htmx partial)."""

    decorators: tuple = (login_required,)  # outermost first, as if written above a function view
    template_name = ""
    partial_name: str | None = None

    @classmethod
    def as_view(cls, **initkwargs):
        view = super().as_view(**initkwargs)
        for decorator in reversed(cls.decorators):
            view = decorator(view)
        return view

    def get_context(self, request, **kwargs) -> dict:
        """The template's context; pages override it."""
        return {}

    def render(self, request, context: dict):
        """The whole page, or only the partial when htmx asks for it."""
        return render_page(request, self.template_name, context, self.partial_name)

    def get(self, request, **kwargs):
        return self.render(request, self.get_context(request, **kwargs))


class ObjectListView(PageView):
    """Rows of a queryset, filtered by `filterset_class` (if any) and paginated; one view, page or partial."""

    filterset_class = None
    context_object_name = "object_list"
    per_page: int | None = None

    def get_queryset(self, request, **kwargs):
        raise NotImplementedError

    def get_extra_context(self, request, pager) -> dict:
        """More context next to the rows (other pagers, forms); pages override it."""
        return {}

    def get_context(self, request, **kwargs) -> dict:
        queryset, context = self.get_queryset(request, **kwargs), {}
        if self.filterset_class is not None:
            context["filter"] = self.filterset_class(request.GET, queryset=queryset)
            queryset = context["filter"].qs
        pager = paginate(request, queryset, self.per_page) if self.per_page else paginate(request, queryset)
        context |= {self.context_object_name: pager.rows, "pager": pager}
        return context | self.get_extra_context(request, pager)


class ObjectDetailView(PageView):
    """One object the user may see (`get_object` answers 404 otherwise) and its context."""

    context_object_name = "object"

    def get_object(self, request, **kwargs):
        raise NotImplementedError

    def get_extra_context(self, request, obj) -> dict:
        return {}

    def get_context(self, request, **kwargs) -> dict:
        obj = self.get_object(request, **kwargs)
        return {self.context_object_name: obj} | self.get_extra_context(request, obj)


def service_call(call, *args):
    """Run a service call for a page: (result, None), or (None, the ServiceError); a NotFound is a 404."""
    try:
        return call(*args), None
    except NotFound as exc:
        raise Http404(str(exc.detail)) from None
    except ServiceError as exc:
        return None, exc


def attach_detail(form, exc: ServiceError) -> None:
    """Each of the service's messages (a list stays a list) next to its field, else above the form."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.detail)


class ObjectEditView(PageView):
    """A form whose valid POST calls the service; a refusal is shown next to its field (`attach`), else above."""

    def get_form(self, request, **kwargs):
        """The form, bound to the POST when there is one."""
        raise NotImplementedError

    def save(self, request, form, **kwargs):
        """Call the service with the form's data; returns what it made or changed."""
        raise NotImplementedError

    def form_error(self, form, exc: ServiceError) -> None:
        attach(form, exc)

    def saved(self, request, result, **kwargs):
        """The answer to a successful save: a message and a redirect, as a rule."""
        raise NotImplementedError

    def get_context(self, request, form=None, **kwargs) -> dict:
        return {"form": form}

    def get(self, request, **kwargs):
        form = self.get_form(request, **kwargs)
        return self.render(request, self.get_context(request, form=form, **kwargs))

    def post(self, request, **kwargs):
        form = self.get_form(request, **kwargs)
        if self.may_save(request, form):
            result, error = service_call(self.save, request, form)
            if error is None:
                return self.saved(request, result, **kwargs)
            self.form_error(form, error)
        return self.render(request, self.get_context(request, form=form, **kwargs))

    def may_save(self, request, form) -> bool:
        """Whether this POST is a submission to save (pages with live checks say no to those)."""
        return form is not None and form.is_valid()


class ObjectActionView(PageView):
    """A POST that calls one service function: its message on success, a refusal as an error message."""

    http_method_names = ["post"]

    def get_object(self, request, **kwargs):
        raise NotImplementedError

    def perform(self, request, obj):
        """Call the service; returns what the success message and redirect are made of."""
        raise NotImplementedError

    def success_message(self, obj, result) -> str:
        return ""

    def get_success_url(self, request, obj, result=None) -> str:
        raise NotImplementedError

    def refused(self, request, obj, exc: ServiceError):
        """A refusal: its reason as a message, back where the page would have gone."""
        messages.error(request, exc.text)
        return redirect(self.get_success_url(request, obj))

    def post(self, request, **kwargs):
        obj = self.get_object(request, **kwargs)
        result, error = service_call(self.perform, request, obj)
        if error is not None:
            return self.refused(request, obj, error)
        if text := self.success_message(obj, result):
            messages.success(request, text)
        return self.answer(request, obj, result)

    def answer(self, request, obj, result):
        """The response after success: a redirect, as a rule (pages that show a result once override it)."""
        return redirect(self.get_success_url(request, obj, result))


class ObjectDeleteView(ObjectActionView):
    """GET: the confirmation page; POST: delete through the service, refusals come back as a message."""

    http_method_names = ["get", "post"]
    what = "object"

    def get(self, request, **kwargs):
        obj = self.get_object(request, **kwargs)
        back = self.get_success_url(request, obj)
        return render(request, self.template_name, {"object": obj, "what": self.what, "back": back})

    def success_message(self, obj, result) -> str:
        return f"Deleted {self.what} {obj}."
