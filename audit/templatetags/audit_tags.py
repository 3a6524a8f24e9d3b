"""Template helpers of the audit app: an event's before/after as a field-level diff."""

from django import template

from audit import diff

register = template.Library()


@register.filter
def changes(event) -> list[diff.Change]:
    """The fields an audit event changed, each with its value before and after."""
    return diff.changes(event.before, event.after)
