"""Errors raised by the service layer; the API and UI map them to HTTP statuses."""


class ServiceError(Exception):
    """A refused operation; `detail` is shown to the user as is."""

    status_code = 400
    code = "invalid"

    def __init__(self, detail, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field

    @property
    def text(self) -> str:
        """The detail as one line for a page (a list of messages joined)."""
        return self.detail if isinstance(self.detail, str) else "; ".join(map(str, self.detail))

    def as_dict(self) -> dict:
        """Return the error in the API's JSON shape (field-level where a field is known)."""
        messages = self.detail if isinstance(self.detail, list) else [self.detail]
        return {self.field or "detail": messages if self.field else messages[0], "code": self.code}


class InvalidRequest(ServiceError):
    status_code = 400
    code = "invalid"


class QuotaExceeded(ServiceError):
    """The tenant's usage (pending requests included) leaves too little: a conflict with state, as Neutron's
    OverQuota; the same request succeeds once the quota grows or other requests go."""

    status_code = 409
    code = "quota_exceeded"

    def __init__(self, messages: list[str]):
        super().__init__(messages, field="quota")


class NotOffered(ServiceError):
    """The site cannot realize what was asked (an attachment, a data path, a GPU profile); says why.

    A conflict with the site's inventory, as a quota is with the tenant's usage: valid once the site has it."""

    status_code = 409
    code = "not_offered"

    def __init__(self, reasons: list[str]):
        super().__init__(reasons, field="site")


class Forbidden(ServiceError):
    status_code = 403
    code = "permission_denied"


class NotFound(ServiceError):
    status_code = 404
    code = "not_found"


class Conflict(ServiceError):
    """The object is no longer in the state the caller assumed (lost a compare-and-set)."""

    status_code = 409
    code = "conflict"
