"""Error classes the reconciler acts on: retry transient errors, surface permanent ones."""


class VSphereError(Exception):
    """Base class for every error the vSphere driver raises."""

    def __init__(self, message: str, *, fault: str = "", step: str = ""):
        super().__init__(message)
        self.fault = fault
        self.step = step


class TransientError(VSphereError):
    """Retrying later may succeed: connection lost, timeouts, busy objects."""


class PermanentError(VSphereError):
    """Retrying cannot help: the request or the environment must change first."""


class PreflightError(PermanentError):
    """Enclave's own checks refused the request before any change was sent to vSphere."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems), fault="Preflight")
        self.problems = problems


class MarkerMismatchError(PermanentError):
    """An object with the expected name belongs to someone else (foreign or missing marker)."""


# vSphere fault names (WSDL names, so this module needs no pyvmomi) worth retrying.
TRANSIENT_FAULTS = frozenset(
    {
        "TaskInProgress",
        "HostCommunication",
        "HostNotConnected",
        "HostNotReachable",
        "ConcurrentAccess",
        "Timedout",
        "RequestCanceled",
        "SystemError",
        "NotAuthenticated",
        "ManagedObjectNotFound",  # ids are not stable; the next run looks objects up again
        "InvalidPowerState",  # a power operation was in flight
        "ResourceInUse",
    }
)


def classify_fault(fault_name: str, message: str, step: str = "") -> VSphereError:
    """Map a vSphere fault name to a transient or permanent error."""
    text = f"{step}: {fault_name}: {message}" if step else f"{fault_name}: {message}"
    if fault_name in TRANSIENT_FAULTS:
        return TransientError(text, fault=fault_name, step=step)
    return PermanentError(text, fault=fault_name, step=step)
