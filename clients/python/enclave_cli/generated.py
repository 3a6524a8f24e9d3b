"""The generated client, loaded a piece at a time. `enclave_client.models`' __init__ imports every model module
(~500 of them, over a second), and any endpoint module runs it, though each imports what it needs from the models'
own modules (`from ...models.tenant import Tenant`). `defer_models_init` registers that package without running its
__init__, so that a command loads only the endpoints and models it uses (tens of milliseconds). The first lookup of
a name on the package itself (`from enclave_client.models import Tenant`, `models.__all__`) runs the __init__ then,
as usual, so the client's code and everything that uses it behave as before."""

import importlib.util
import sys

MODELS = "enclave_client.models"


def defer_models_init() -> None:
    """Register `enclave_client.models` unexecuted, its __init__ run on first lookup; a no-op once it is loaded."""
    if MODELS in sys.modules:
        return
    import enclave_client

    spec = importlib.util.find_spec(MODELS)
    package = importlib.util.module_from_spec(spec)
    ran = False

    def __getattr__(name: str):
        nonlocal ran
        if ran or (name.startswith("__") and name != "__all__"):
            raise AttributeError(f"module {MODELS!r} has no attribute {name!r}")
        ran = True
        spec.loader.exec_module(package)
        return getattr(package, name)

    package.__getattr__ = __getattr__
    sys.modules[MODELS] = package
    enclave_client.models = package
