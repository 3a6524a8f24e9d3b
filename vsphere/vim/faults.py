"""pyvmomi's faults and socket/TLS errors as the reconciler's transient or permanent errors; foreign objects refused."""

from __future__ import annotations

import contextlib
import http.client
import logging
import ssl
from collections.abc import Iterator

from pyVmomi import vmodl

from vsphere.errors import MarkerMismatchError, PermanentError, TransientError, VSphereError, classify_fault

log = logging.getLogger(__name__)


def translate(exc: BaseException, step: str) -> VSphereError:
    """Map a pyvmomi fault or a socket/TLS error to a transient or permanent error."""
    if isinstance(exc, VSphereError):
        return exc
    if isinstance(exc, vmodl.MethodFault):
        return classify_fault(type(exc)._wsdlName, exc.msg or "", step)
    if isinstance(exc, ssl.SSLCertVerificationError):
        return PermanentError(f"{step}: TLS verification failed: {exc}", fault="TLS", step=step)
    if isinstance(exc, OSError | http.client.HTTPException):
        # refused, reset, timed out, half-closed: vCenter or the network is down right now
        return TransientError(f"{step}: {type(exc).__name__}: {exc}", fault="Connection", step=step)
    return PermanentError(f"{step}: {type(exc).__name__}: {exc}", fault="Unexpected", step=step)


def fault_of(error: object, step: str) -> VSphereError:
    """Turn a task's info.error (a MethodFault) into an Enclave error."""
    name = type(error)._wsdlName if isinstance(error, vmodl.MethodFault) else "TaskError"
    message = getattr(error, "msg", "") or getattr(error, "localizedMessage", "") or ""
    return classify_fault(name, message, step)


@contextlib.contextmanager
def guarded(step: str) -> Iterator[None]:
    """Re-raise anything a vSphere call throws as TransientError or PermanentError."""
    try:
        yield
    except VSphereError:
        raise
    except Exception as exc:
        raise translate(exc, step) from exc


def require_marker(kind: str, name: str, found: str, expected: str) -> None:
    """Refuse to touch an object whose marker is not ours."""
    if found != expected:
        # The cluster's status and step log reach its tenant: the found marker (another tenant's cluster id) goes
        # only to the worker's log, read by site admins.
        log.warning("%s %r carries marker %r, expected %r; refusing to touch it", kind, name, found, expected)
        owner = "belongs to something else" if found else "has no Enclave marker"
        raise MarkerMismatchError(f"{kind} {name!r} exists in vCenter and {owner}; refusing to touch it",
                                  fault="MarkerMismatch")  # fmt: skip
