"""Field-level differences of an audit event's before and after: what pages and e-mails show of a change."""

import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder

ABSENT = "—"  # the field did not exist on that side (a creation, a deletion)


@dataclass(frozen=True)
class Change:
    """One field that changed: its name and both values as text."""

    field: str
    before: str
    after: str


def as_text(value) -> str:
    """A value as one line of text: strings as they are, everything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, cls=DjangoJSONEncoder, sort_keys=True, separators=(", ", ": "))


def _as_dict(value) -> dict:
    if value is None:
        return {}
    return value if isinstance(value, dict) else {"value": value}


def changes(before, after) -> list[Change]:
    """Every field whose value differs, in the events' field order (a creation lists every field)."""
    old, new = _as_dict(before), _as_dict(after)
    rows = []
    for field in dict.fromkeys([*old, *new]):
        if field in old and field in new and old[field] == new[field]:
            continue
        rows.append(Change(field, as_text(old[field]) if field in old else ABSENT,
                           as_text(new[field]) if field in new else ABSENT))  # fmt: skip
    return rows
