"""vsphere/ in rooms: the app's module graph (lazy imports included) has no cycle and points only down.

Rooms, bottom to top (docs/architecture.md, "vSphere in rooms"):
  leaves     models.py, choices.py, errors.py       what every room may use
  naming     naming.py                               names and markers of what Enclave makes in vCenter
  plan/      pure model and planning                 reads PostgreSQL at most, no pyvmomi
  placement/ choosing and taking hosts, devices, VFs
  vim/       the only pyvmomi importers              uses plan's specs only
  reconcile/ the reconciler's steps                  the only room that uses vim
  top        the app's standard files (services, tasks, api, views, realizer, admin, ...)
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "vsphere"
LEAVES = {"vsphere.models", "vsphere.choices", "vsphere.errors"}
ROOMS = ("plan", "placement", "vim", "reconcile")
# What each room may import besides itself (top may import anything).
MAY_USE = {
    "leaf": {"leaf"},
    "naming": {"leaf"},
    "plan": {"leaf", "naming"},
    "placement": {"leaf", "naming", "plan"},
    "vim": {"leaf", "plan"},
    "reconcile": {"leaf", "naming", "plan", "placement", "vim"},
}
# Outside reconcile/, only these reach vCenter directly: the tasks and the simulator set-up commands.
VIM_USERS_AT_TOP = {"vsphere.tasks", "vsphere.management.commands.nsx_register_sim"}
# The app's standard files stay at the top of the package.
STANDARD = ("models", "choices", "services", "serializers", "filtersets", "api", "tasks", "admin", "views", "urls")


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if "migrations" in parts:
            continue
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The vsphere module an import names (`from vsphere.plan import capacity` names vsphere.plan.capacity)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported name, line, at module level) of every import in the file, function-local ones included."""
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            found.append((base, node.lineno, id(node) in top))
            found += [(f"{base}.{alias.name}", node.lineno, id(node) in top) for alias in node.names]
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        edges = {_resolve(name) for name, _line, _top in _imports(module, path) if name.startswith("vsphere")}
        graph[module] = {target for target in edges if target and target != module and target != "vsphere"}
    return graph


def room(module: str) -> str:
    if module in LEAVES:
        return "leaf"
    if module == "vsphere.naming":
        return "naming"
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else "top"


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules along it ([] when there is none)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_modules_of_vsphere_import_each_other_without_a_cycle():
    assert _cycle(_graph()) == []


def test_the_cycle_finder_finds_a_cycle_through_three_modules():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]


def test_only_the_vim_room_imports_pyvmomi():
    importers = sorted(
        module
        for module, path in MODULES.items()
        if any(name.split(".")[0] in ("pyVmomi", "pyVim") for name, _line, _top in _imports(module, path))
    )
    assert importers and all(room(module) == "vim" for module in importers), importers


def test_each_room_imports_only_the_rooms_below_it():
    wrong = [
        f"{module} ({room(module)}) imports {target} ({room(target)})"
        for module, targets in _graph().items()
        for target in targets
        if room(module) != "top" and room(target) != room(module) and room(target) not in MAY_USE[room(module)]
    ]
    assert wrong == []


def test_vim_is_used_only_by_the_reconcile_room_and_the_tasks():
    users = {module for module, targets in _graph().items() if any(room(t) == "vim" for t in targets)}
    assert {u for u in users if room(u) not in ("vim", "reconcile")} <= VIM_USERS_AT_TOP


def test_no_module_of_vsphere_imports_another_inside_a_function_except_the_app_config():
    lazy = [
        f"{module}:{line} {name}"
        for module, path in MODULES.items()
        for name, line, at_top in _imports(module, path)
        if not at_top and module != "vsphere.apps" and not name.startswith(("pyVmomi", "pyVim"))
    ]
    assert lazy == []


def test_the_standard_files_of_a_django_app_stay_at_the_top_of_vsphere():
    assert all(f"vsphere.{name}" in MODULES for name in STANDARD)
    assert all(room(f"vsphere.{name}") in ("top", "leaf") for name in STANDARD)


def test_the_driver_the_planner_and_converge_import_without_django_apps_loaded():
    # The simulator tests and the benchmarks use them without a database.
    code = "import vsphere.naming, vsphere.plan.diff, vsphere.plan.device_preflight, vsphere.reconcile.converge"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
