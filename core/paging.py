"""Pages of long lists: numbered pages (a COUNT and a slice) and keyset pages (no COUNT at all).

Every page that lists rows shows one page of them, so its cost does not grow with the site."""

from dataclasses import dataclass

from django.core.paginator import Paginator

PER_PAGE = 50


@dataclass(frozen=True)
class Pager:
    """One page of rows and the links around it (query strings keep the other parameters)."""

    rows: list
    label: str
    previous: str = ""
    next: str = ""


def _link(request, **changes) -> str:
    params = request.GET.copy()
    for key, value in changes.items():
        params.pop(key, None)
        if value is not None:
            params[key] = value
    params.pop("export", None)
    return "?" + params.urlencode()


def paginate(request, queryset, per_page: int = PER_PAGE, param: str = "page") -> Pager:
    """A numbered page (`?page=N`); `param` tells two lists on one page apart."""
    page = Paginator(queryset, per_page).get_page(request.GET.get(param))
    count = page.paginator.count
    label = f"{page.start_index()}–{page.end_index()} of {count}" if count else ""
    return Pager(list(page.object_list), label,
                 _link(request, **{param: page.previous_page_number()}) if page.has_previous() else "",
                 _link(request, **{param: page.next_page_number()}) if page.has_next() else "")  # fmt: skip


def keyset(request, queryset, per_page: int = PER_PAGE) -> Pager:
    """Newest first by id, `?before=<id>` for older rows and `?after=<id>` for newer: an index scan
    of one page however many rows there are (the audit log holds millions)."""
    before, after = _int(request.GET.get("before")), _int(request.GET.get("after"))
    if after is not None:
        rows = list(queryset.filter(pk__gt=after).order_by("pk")[: per_page + 1])
        newer, rows = len(rows) > per_page, rows[:per_page][::-1]
        older = bool(rows)
    else:
        if before is not None:
            queryset = queryset.filter(pk__lt=before)
        rows = list(queryset.order_by("-pk")[: per_page + 1])
        older, rows = len(rows) > per_page, rows[:per_page]
        newer = before is not None
    return Pager(rows, f"{len(rows)} shown" if rows else "",
                 _link(request, after=rows[0].pk, before=None) if newer and rows else "",
                 _link(request, before=rows[-1].pk, after=None) if older and rows else "")  # fmt: skip


def _int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None
