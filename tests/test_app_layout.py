"""The per-app layout DEVELOPERS.md states is the tree: the files each app has, its API routes, its pages."""

import ast
import importlib
import inspect

from django.urls import URLResolver, get_resolver
from django.views import View

from core.views import PageView
from tests.conftest import ROOT

APPS = ("audit", "users", "notices", "tenants", "netpolicy", "agents", "nsx", "vsphere", "fabrics", "catalog",
        "identity", "webhooks", "frontend")  # fmt: skip
PAGES_ONLY = {"frontend"}  # the researcher-facing pages of tenants, audit and users; it owns no data
# Where an app's intent changes; netpolicy has one service module per kind of object instead of services.py.
SERVICES = {"netpolicy": ("segments.py", "allocation.py", "policy.py", "rules.py", "site.py", "service_requests.py")}


def _page_modules(app: str) -> list[str]:
    """An app's page modules: views.py and the *_views.py beside it."""
    return sorted(p.stem for p in (ROOT / app).glob("*views.py"))


def _class_views(app: str):
    """(module, class) for every class view an app's page modules define."""
    for stem in _page_modules(app):
        module = importlib.import_module(f"{app}.{stem}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, View):
                yield module, cls


def test_every_app_has_its_config_and_its_services_and_its_models_have_migrations():
    missing = [
        f"{app}/{name}"
        for app in APPS
        if app not in PAGES_ONLY
        for name in ("models.py", *SERVICES.get(app, ("services.py",)))
        if not (ROOT / app / name).exists()
    ]
    missing += [f"{app}/apps.py" for app in APPS if not (ROOT / app / "apps.py").exists()]  # fmt: skip
    missing += [f"{app}/migrations/" for app in APPS if (ROOT / app / "models.py").exists()
                and not (ROOT / app / "migrations" / "__init__.py").exists()]  # fmt: skip
    assert not missing, missing


def test_every_app_with_an_api_registers_its_routes_in_its_own_api_urls_and_portal_only_loops_over_them():
    from portal import api_urls

    with_api = {app for app in APPS if (ROOT / app / "api.py").exists()}
    with_urls = {app for app in APPS if (ROOT / app / "api_urls.py").exists()}
    assert with_api == with_urls == set(api_urls.API_APPS), (with_api, with_urls, api_urls.API_APPS)
    for app in with_urls:
        module = importlib.import_module(f"{app}.api_urls")
        assert callable(module.register), app
        assert (ROOT / app / "serializers.py").exists(), app
    tree = ast.parse((ROOT / "portal" / "api_urls.py").read_text())
    imported = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module.split(".")[0] in APPS]
    assert not imported, "portal/api_urls.py names no app's module: each app's api_urls.py registers its routes"


def test_every_app_with_pages_has_its_urls_its_namespace_and_its_own_templates():
    included = {r.namespace for r in get_resolver().url_patterns if isinstance(r, URLResolver) and r.namespace}
    problems = []
    for app in APPS:
        if not _page_modules(app):
            continue
        urls = importlib.import_module(f"{app}.urls")
        if getattr(urls, "app_name", None) != app or app not in included:
            problems.append(f"{app}/urls.py: app_name {app!r}, included by portal/urls.py")
        for _, cls in _class_views(app):
            for name in filter(None, (getattr(cls, "template_name", ""), getattr(cls, "partial_name", None))):
                if not name.startswith(f"{app}/") or not (ROOT / app / "templates" / name).exists():
                    problems.append(f"{cls.__qualname__}: {name} is not in {app}/templates/{app}/")
    assert not problems, problems


def test_every_class_view_of_an_app_derives_from_cores_generic_page_views():
    found = [f"{module.__name__}.{cls.__qualname__}" for app in APPS for module, cls in _class_views(app)
             if not issubclass(cls, PageView)]  # fmt: skip
    assert not found, f"derive these from core.views (ObjectListView, ObjectEditView, ...): {found}"


def _app_routes(patterns, namespace=""):
    """(namespace, route, callback) for every page route, through included URL confs."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _app_routes(pattern.url_patterns, pattern.namespace or namespace)
        else:
            yield namespace, str(pattern.pattern), pattern.callback


def test_every_page_route_of_an_app_is_a_generic_page_view_not_a_hand_written_function():
    found = [f"{ns}:{route}" for ns, route, callback in _app_routes(get_resolver().url_patterns)
             if ns in APPS and not issubclass(getattr(callback, "view_class", object), PageView)]  # fmt: skip
    assert not found, f"write these as core.views page views: {found}"
