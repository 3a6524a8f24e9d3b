"""Page rendering shared by every app's views: one view answers the full page or its htmx partial."""

from django.shortcuts import render


def render_page(request, template: str, context: dict, partial: str | None = None):
    """Render the full page, or only `partial` when htmx asks for it."""
    if partial and request.htmx:
        return render(request, partial, context)
    return render(request, template, context)


def attach(form, exc, aliases: dict | None = None) -> None:
    """Show a service error next to the field it is about (`aliases` map service to form names), else above."""
    field = (aliases or {}).get(exc.field, exc.field)
    form.add_error(field if field in form.fields else None, exc.text)
