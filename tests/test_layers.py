"""Layers only point down: feature apps never import the frontend app, and portal's shared helpers import no app."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FEATURE_APPS = ("agents", "audit", "catalog", "fabrics", "identity", "netpolicy", "notices", "nsx", "tenants",
                "users", "vsphere", "webhooks")  # fmt: skip
APPS = (*FEATURE_APPS, "frontend")
# portal is also the project: its URL confs, admin site and commands wire the apps together (the top),
# metrics.py counts clusters, and api.py's tenant-scoped base viewset reads tenants.access; every other
# portal module is the bottom.
PORTAL_WIRING = {"urls.py", "api_urls.py", "schema.py", "metrics.py", "reencrypt_secrets.py"}


def _imports(package: str):
    """(module path, imported top-level package) for every import in a package's own modules."""
    for path in (ROOT / package).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                yield from ((path, alias.name.split(".")[0]) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                yield path, node.module.split(".")[0]


def test_no_feature_app_imports_the_frontend():
    found = [f"{path.relative_to(ROOT)} imports frontend" for app in FEATURE_APPS if (ROOT / app).exists()
             for path, target in _imports(app) if target == "frontend"]  # fmt: skip
    assert not found, found


def test_the_portal_package_imports_no_app():
    found = [f"{path.relative_to(ROOT)} imports {target}" for path, target in _imports("portal")
             if target in APPS and path.name not in PORTAL_WIRING]  # fmt: skip
    assert not found, found


# fabrics sits above these site apps: it reaches them through their registries, they never import it.
BELOW_FABRICS = ("tenants", "netpolicy", "vsphere", "agents", "nsx", "catalog", "users", "audit", "identity")


def test_the_apps_below_fabrics_never_import_it():
    found = [f"{path.relative_to(ROOT)} imports fabrics" for app in BELOW_FABRICS
             for path, target in _imports(app) if target == "fabrics"]  # fmt: skip
    assert not found, found
