"""Layers only point down: imports, string foreign keys and migration dependencies follow one declared order.

An app may import, hold foreign keys to and depend in migrations on apps at or below it (Django, contrib and
third-party packages are fine). `core` imports no app; `portal` holds only the project's wiring. An app
below that needs an answer from an app above declares a registry the upper app fills in its
AppConfig.ready() (docs/architecture.md, "Registries"). There is no whitelist: an edge that points up fails.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER = ("core", "audit", "users", "notices", "tenants", "netpolicy", "agents", "nsx", "vsphere", "fabrics",
         "catalog", "identity", "webhooks", "frontend", "portal")  # fmt: skip
RANK = {app: rank for rank, app in enumerate(ORDER)}
# The project's wiring: settings, URL confs, the Celery app and its beat scheduler, the WSGI/gunicorn entry
# points, login lockout and schema access (named by settings and the URL conf), health and metrics endpoints,
# the database roles and the management commands that wire the apps. Anything else belongs to core or an app.
PORTAL_WIRING = {"__init__.py", "apps.py", "settings.py", "ldap_settings.py", "oidc_settings.py", "urls.py",
                 "api_urls.py", "celery.py", "beat.py", "tasks.py", "wsgi.py", "gunicorn_conf.py", "gunicorn_worker.py",
                 "auth.py", "schema.py", "health.py", "metrics.py", "dbroles.py", "management/__init__.py",
                 "management/commands/__init__.py", "management/commands/flush.py",
                 "management/commands/migrate.py", "management/commands/reencrypt_secrets.py"}  # fmt: skip
FIELDS = {"ForeignKey", "OneToOneField", "ManyToManyField"}


def _modules(app: str, migrations: bool = False):
    """The app's own Python files: its migrations only, or everything else."""
    for path in sorted((ROOT / app).rglob("*.py")):
        if ("migrations" in path.relative_to(ROOT).parts) == migrations:
            yield path


def _imported(tree: ast.AST):
    """(line, imported top-level package) for every import, at module level or inside a function."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name.split(".")[0]) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module.split(".")[0]


def _upward(app: str, target: str) -> bool:
    return target in RANK and RANK[target] > RANK[app]


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def _string_fks(tree: ast.AST):
    """(line, app label) for every relation field whose target is an 'app.Model' string."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in FIELDS):
            continue
        targets = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "to")]
        for target in targets:
            if isinstance(target, ast.Constant) and isinstance(target.value, str) and "." in target.value:
                yield node.lineno, target.value.split(".")[0]


def _dependencies(tree: ast.AST):
    """(line, app label) for every ("app", "migration") pair in a migration's `dependencies`."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "dependencies" for t in node.targets)):
            continue
        for element in getattr(node.value, "elts", []):
            if isinstance(element, ast.Tuple) and isinstance(element.elts[0], ast.Constant):
                yield element.lineno, element.elts[0].value


def test_the_declared_order_names_every_app_of_the_project_once():
    packages = {p.parent.name for p in ROOT.glob("*/apps.py")} | {"core"}
    assert len(set(ORDER)) == len(ORDER), ORDER
    assert packages == set(ORDER), f"apps missing from ORDER: {packages - set(ORDER)}; gone: {set(ORDER) - packages}"


def test_every_import_of_every_app_points_to_an_app_at_or_below_it():
    found = [f"{_where(path, line)}: {app} imports {target}, which sits above it" for app in ORDER
             for path in _modules(app) for line, target in _imported(ast.parse(path.read_text()))
             if _upward(app, target)]  # fmt: skip
    assert not found, "\n".join(found)


def test_core_imports_no_app():
    found = [f"{_where(path, line)}: core imports {target}" for path in _modules("core")
             for line, target in _imported(ast.parse(path.read_text()))
             if target in RANK and target != "core"]  # fmt: skip
    assert not found, "\n".join(found)


def test_the_portal_package_holds_only_the_projects_wiring():
    found = [f"{path.relative_to(ROOT)} is not wiring: move it to core or to the app it serves"
             for path in _modules("portal")
             if path.relative_to(ROOT / "portal").as_posix() not in PORTAL_WIRING]  # fmt: skip
    assert not found, "\n".join(found)


def _upward_fks() -> list[tuple[str, str, str]]:
    return [(_where(path, line), app, target)
            for app in ORDER for path in _modules(app) if path.name == "models.py" or "models" in path.parent.name
            for line, target in _string_fks(ast.parse(path.read_text())) if _upward(app, target)]  # fmt: skip


def _upward_migrations() -> list[tuple[str, str, str]]:
    return [(_where(path, line), app, target)
            for app in ORDER for path in _modules(app, migrations=True)
            for line, target in _dependencies(ast.parse(path.read_text())) if _upward(app, target)]  # fmt: skip


def test_every_string_foreign_key_in_models_points_to_an_app_at_or_below_it():
    found = [f"{where}: a model of {app} holds a foreign key to {target}, which sits above it"
             for where, app, target in _upward_fks()]  # fmt: skip
    assert not found, "\n".join(found)


def test_every_migration_depends_only_on_apps_at_or_below_its_own():
    found = [f"{where}: a migration of {app} depends on {target}, which sits above it"
             for where, app, target in _upward_migrations()]  # fmt: skip
    assert not found, "\n".join(found)
