"""Page rendering shared by every app's views: one view answers the full page or its htmx partial."""

from django.shortcuts import render


def render_page(request, template: str, context: dict, partial: str | None = None):
    """Render the full page, or only `partial` when htmx asks for it."""
    if partial and request.htmx:
        return render(request, partial, context)
    return render(request, template, context)
