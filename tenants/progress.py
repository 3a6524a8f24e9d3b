"""Where a cluster request is on its path, and who (by role) may act next: for the page, the e-mail, the API."""

from tenants.choices import ClusterState as S

# The path every request follows; a step's key is what `next_step()["step"]` names.
PATH = (
    ("submitted", "Submitted"),
    ("endorse", "A PI of the tenant endorses"),
    ("approve", "A site admin approves"),
    ("provisioning", "Provisioning"),
    ("ready", "Ready"),
)

ACTORS = {
    "requester": "the requester",
    "pi": "a PI of the tenant",
    "site_admin": "a site admin",
    "pi_or_site_admin": "a PI of the tenant or a site admin",
    "site": "nobody (the site works on it)",
    "": "nobody",
}

# state -> (step on the path, who acts next, what happens next in words; {tenant} is the tenant's slug)
_NEXT = {
    S.DRAFT: ("submitted", "requester", "The requester submits the draft; then a PI of {tenant} endorses it."),
    S.SUBMITTED: ("endorse", "pi", "A PI of {tenant} endorses the request; then a site admin approves it."),
    S.ENDORSED: ("approve", "site_admin", "A site admin approves the request; then the site provisions it."),
    S.APPROVED: ("provisioning", "site", "The site creates the cluster; nobody needs to act."),
    S.PROVISIONING: ("provisioning", "site", "The site creates the cluster; nobody needs to act."),
    S.READY: ("ready", "", "The cluster is ready to use."),
    S.DEGRADED: ("ready", "pi_or_site_admin", "A PI of {tenant} or a site admin resizes or decommissions it."),
    S.ERROR: ("provisioning", "pi_or_site_admin", "A PI of {tenant} or a site admin resizes or decommissions it."),
    S.REJECTED: ("done", "", "The request was rejected; nothing follows."),
    S.DECOMMISSIONING: ("done", "site", "The site removes the cluster; nobody needs to act."),
    S.RETIRED: ("done", "", "The cluster is gone; nothing follows."),
}


def next_step(cluster) -> dict:
    """The step the request is at, the role that may act next ("" for none) and a sentence saying so."""
    step, actor, text = _NEXT[S(cluster.state)]
    return {"step": step, "actor": actor, "text": text.format(tenant=cluster.tenant.slug)}


def path(cluster) -> list[dict]:
    """The path's steps, each marked done, current or to come; none once the request has left the path."""
    step = next_step(cluster)["step"]
    keys = [key for key, _ in PATH]
    if step not in keys:
        return []
    at = keys.index(step)
    if step == "ready" and cluster.state == S.READY:
        at = len(keys)  # the last step reached is done, not waiting
    return [{"key": key, "label": label, "status": "done" if i < at else "current" if i == at else "todo"}
            for i, (key, label) in enumerate(PATH)]  # fmt: skip


def text(cluster) -> str:
    """The path in one e-mail paragraph: every step, the current one marked, and who acts next."""
    marks = {"done": "[x]", "current": "[>]", "todo": "[ ]"}
    steps = path(cluster)
    if not steps:
        return ""
    lines = ["", "What happens next:", *[f"    {marks[s['status']]} {s['label']}" for s in steps]]
    return "\n".join([*lines, f"Next: {next_step(cluster)['text']}", ""])
