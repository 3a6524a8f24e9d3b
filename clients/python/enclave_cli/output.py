"""Output: a plain table by default, or the API's own fields as JSON or YAML (`-o json|yaml`)."""

import datetime
import enum
import json
import sys
from collections.abc import Callable, Sequence

import click
import yaml

Column = tuple[str, str | Callable]  # a header and an attribute name or a function of the row
FORMATS = ("table", "json", "yaml")


def _unset(value) -> bool:
    """The generated client's "field absent"; there is none unless the client is loaded (not imported for it)."""
    types = sys.modules.get("enclave_client.types")
    return types is not None and isinstance(value, types.Unset)


def cell(value) -> str:
    """One table cell: enums by value, dates short, lists comma-separated, nothing as '-'."""
    if _unset(value) or value is None or value == "":
        return "-"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    if isinstance(value, list | tuple):
        return ",".join(cell(v) for v in value) or "-"
    return str(value).replace("\n", " ")


def _value(row, column: Column):
    getter = column[1]
    return getter(row) if callable(getter) else getattr(row, getter, None)


def table(rows: Sequence, columns: Sequence[Column]) -> str:
    """Left-aligned columns, two spaces apart, a header line first."""
    lines = [[header for header, _ in columns]]
    lines += [[cell(_value(row, column)) for column in columns] for row in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(columns))]
    return "\n".join("  ".join(text.ljust(w) for text, w in zip(line, widths, strict=True)).rstrip() for line in lines)


def plain(obj):
    """A model (or list of them) as the API's JSON fields."""
    if isinstance(obj, list):
        return [plain(item) for item in obj]
    return obj.to_dict() if hasattr(obj, "to_dict") else obj


def emit(obj, columns: Sequence[Column], fmt: str, many: bool = True) -> None:
    """Print rows (or one object) in the chosen format on stdout."""
    if fmt == "json":
        click.echo(json.dumps(plain(obj), indent=2, sort_keys=True, default=str))
    elif fmt == "yaml":
        click.echo(yaml.safe_dump(plain(obj), sort_keys=True, default_flow_style=False), nl=False)
    elif many:
        click.echo(table(obj, columns))
    else:
        click.echo(table([[header, cell(_value(obj, (header, getter)))] for header, getter in columns],
                         [("FIELD", lambda r: r[0]), ("VALUE", lambda r: r[1])]))  # fmt: skip
