"""The abuse table's machinery: entries as data, the "nothing changed" check, and the site-compiles check.

Other suites reuse `state_digest()` / `assert_nothing_changed()` and `assert_site_compiles()`.
"""

import hashlib
import re
from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

# Apps whose tables hold intent (what the site should be); the audit log is checked by its own hook.
INTENT_APPS = ("auth", "users", "tenants", "netpolicy", "agents", "vsphere", "catalog", "notices", "identity",
               "webhooks", "fabrics")  # fmt: skip
# Columns that change on a refused request by design (login bookkeeping, liveness), per model label.
VOLATILE = {
    "auth.user": {"last_login"},
    "agents.node": {"last_seen"},
    "users.apitoken": {"last_used_at"},
}
ROLES = ("owner_a", "member_a", "owner_b", "member_b", "admin", "anonymous", "node_b")
# Refused at the door: no session or a node credential on a user route (pages redirect to the login).
DOOR = {"api": frozenset({401, 403}), "page": frozenset({302})}


@dataclass(frozen=True)
class Ref:
    """A reference into the abuse world, resolved when the request is made: `Ref("tenant_a")` is its pk."""

    name: str
    attr: str | None = "pk"  # None: the attribute itself (a raw credential, a token)


@dataclass(frozen=True)
class Abuse:
    """One attack: who tries what on which object, and the statuses that count as refused.

    `route` is a URL name, `target` the world attribute whose pk fills `<pk>`, `body` the request data
    (JSON for the API, a form for pages; `Ref`s resolve against the world). `refused` applies to every
    attacker unless `by_role` says otherwise; anonymous and node credentials on user routes may also be
    refused at the door (401/403, or a redirect to the login page). `control`, when set, is a role for
    whom the same request is accepted: it proves the body is well formed, so the refusals are about
    who asks, and that the accepted write changes the intent (unless `control_changes` is off: a question
    such as what-if) and still leaves a site that compiles. `pending` names the branch whose fix makes an
    attack refused: the entry then runs as a strict xfail, so it turns red the day the fix lands and the
    mark must go with it.
    """

    attack: str
    route: str
    method: str
    target: str | None = None
    body: dict = field(default_factory=dict)
    attackers: tuple[str, ...] = ("owner_b",)
    refused: frozenset[int] = frozenset({403, 404})
    by_role: dict = field(default_factory=dict)
    control: str | None = None
    control_changes: bool = True
    kwargs: dict = field(default_factory=dict)
    pending: str = ""

    @property
    def is_api(self) -> bool:
        return not (":" in self.route or self.route in ("login", "logout", "oidc_logout"))

    def statuses(self, role: str) -> frozenset[int]:
        """What counts as refused for this attacker."""
        allowed = frozenset(self.by_role.get(role, self.refused))
        if role in ("anonymous", "node_b") and not self.route.startswith("agent-"):
            allowed |= DOOR["api" if self.is_api else "page"]
        return allowed


def resolve_refs(value, world):
    """Replace every Ref in a body (nested in dicts and lists) by the world's value."""
    if isinstance(value, Ref):
        obj = getattr(world, value.name)
        return obj if value.attr is None else getattr(obj, value.attr)
    if isinstance(value, dict):
        return {k: resolve_refs(v, world) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [resolve_refs(v, world) for v in value]
    return value


# ---------------------------------------------------------------- nothing changed


def _table_digest_sql(model) -> str:
    """A subquery giving the md5 of every row of the model's table (VOLATILE columns left out), in pk order."""
    skip = VOLATILE.get(model._meta.label_lower, set())
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in model._meta.concrete_fields if f.attname not in skip)
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    return f"(SELECT md5(string_agg(ROW({columns})::text, E'\\n' ORDER BY {pk})) FROM {table})"  # noqa: S608 (quoted _meta names)


def _intent_models() -> list:
    """Every model of INTENT_APPS, m2m tables included."""
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.app_label in INTENT_APPS]


def intent_digest() -> str:
    """A digest of every intent table (every model of INTENT_APPS and their m2m tables).

    One query: PostgreSQL hashes each table's rows in place, where reading them into Python took a quarter
    of a second for every check (the abuse table makes about two thousand)."""
    models = sorted(_intent_models(), key=lambda m: m._meta.label_lower)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(_table_digest_sql(m) for m in models))
        digests = cursor.fetchone()
    hasher = hashlib.sha256()
    for model, digest in zip(models, digests, strict=True):
        hasher.update(f"{model._meta.label_lower}={digest or ''}\n".encode())
    return hasher.hexdigest()


def compiled_site() -> tuple[str, str]:
    """The whole site compiled: the node nftables ruleset and the NSX body (raises if it does not compile)."""
    from netpolicy.compiler import nft, nsx
    from netpolicy.ir import build_site

    site = build_site()
    return nft.compile_ruleset(site), nsx.export_infra_json(site)


def ruleset_digest() -> str:
    """A digest of the site's compiled ruleset and NSX export (fails the test if the site no longer compiles)."""
    ruleset, infra = assert_site_compiles()
    return hashlib.sha256((ruleset + "\0" + infra).encode()).hexdigest()


def assert_site_compiles() -> tuple[str, str]:
    """The whole site's policy compiles (nft and NSX; returned); a PolicyError here means a write poisoned it."""
    from netpolicy.compiler.model import PolicyError

    try:
        return compiled_site()
    except PolicyError as exc:
        raise AssertionError(f"the site policy no longer compiles: {exc}") from None


def audit_chain_verifies() -> None:
    """The audit hash chain verifies (audit.chain.verify: ok, or the first broken link and why)."""
    from audit.chain import verify

    report = verify()
    assert report.ok, f"the audit chain is broken at event {report.first_bad_event}: {report.problem}"


def state_digest() -> tuple[str, str]:
    """What must not change when an attack is refused: the intent tables and the compiled site."""
    return intent_digest(), ruleset_digest()


def assert_nothing_changed(before: tuple[str, str], what: str = "") -> tuple[str, str]:
    """Intent tables are as they were, so the compiled site is too, and the audit chain still verifies; returns
    the state now, the `before` of a next request.

    The site is compiled from the intent tables alone and not from the clock (a test in
    tests/security/test_abuse_table.py holds both), so the same tables compile to the same ruleset: compiling
    the whole site again after every refused attack (a third of the abuse table's time) could not find what
    the table digests had not.
    """
    now = (intent_digest(), before[1])
    assert now[0] == before[0], f"{what}: intent tables changed"
    audit_chain_verifies()
    return now


def tables_read(run) -> set[str]:
    """The tables the SQL that run() sends reads from (FROM and JOIN clauses)."""
    with CaptureQueriesContext(connection) as queries:
        run()
    found = set()
    for query in queries.captured_queries:
        found |= set(re.findall(r'(?:FROM|JOIN) "(\w+)"', query["sql"]))
    return found


def intent_tables() -> set[str]:
    """The database tables of INTENT_APPS, m2m tables included (what intent_digest() hashes)."""
    return {m._meta.db_table for m in _intent_models()}
