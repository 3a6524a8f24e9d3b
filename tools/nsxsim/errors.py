"""NSX's error body and the exceptions that produce it."""

from __future__ import annotations

import http

# The stand-in's own error codes, except 604 (NSX's "object was modified by somebody else").
VALIDATION = 255
NOT_FOUND = 600
REVISION = 604
BAD_PATH = 500030
IN_USE = 500071
UNSUPPORTED = 500090
AUTH = 403
INTERNAL = 98
INJECTED = 99


class NsxError(Exception):
    """An answer in NSX's error shape."""

    def __init__(self, status: int, code: int, message: str):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict:
        """The JSON body NSX answers with."""
        return error_body(self.status, self.code, self.message)


def error_body(status: int, code: int, message: str) -> dict:
    """NSX's error body for a status, code and message."""
    return {
        "httpStatus": http.HTTPStatus(status).name,
        "error_code": code,
        "module_name": "nsx-policy",
        "error_message": message,
    }


def invalid(message: str) -> NsxError:
    """400: the request body or its references are not acceptable."""
    return NsxError(400, VALIDATION, message)


def not_found(path: str) -> NsxError:
    """404: no object at this path."""
    return NsxError(404, NOT_FOUND, f"The path=[{path}] is invalid: no such object.")


def dangling(field: str, owner: str, target: str) -> NsxError:
    """400: a reference to an object that does not exist."""
    return NsxError(400, BAD_PATH, f"Invalid path {target} in field '{field}' of {owner}: the object does not exist.")


def in_use(path: str, referrers: list[str]) -> NsxError:
    """400: an object still referenced elsewhere cannot be deleted."""
    return NsxError(400, IN_USE, f"Cannot delete {path}: it is in use by {', '.join(sorted(referrers))}.")


def revision(path: str, given, stored: int) -> NsxError:
    """412: the _revision given is not the stored one."""
    return NsxError(
        412,
        REVISION,
        f"The object {path} was modified by somebody else (_revision {given} given, {stored} stored). Try again.",
    )
