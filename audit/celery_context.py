"""Carry the request id from whoever queues a task into the worker that runs it."""

from celery.signals import before_task_publish, task_postrun, task_prerun

from audit.context import ActorKind, _current, current_actor, system_actor

HEADER = "enclave_request_id"
_tokens: dict[str, object] = {}


@before_task_publish.connect
def add_request_id(headers=None, **_):
    """Stamp the publishing context's request id onto the task message."""
    if headers is not None:
        headers.setdefault(HEADER, current_actor().request_id)


@task_prerun.connect
def enter_task_context(task_id=None, task=None, **_):
    """Make the worker the actor for the task, under the originating request id."""
    request_id = getattr(task.request, HEADER, None) or ""
    actor = system_actor(f"worker:{task.name}", ActorKind.WORKER, request_id)
    _tokens[task_id] = _current.set(actor)


@task_postrun.connect
def leave_task_context(task_id=None, **_):
    """Restore the previous actor after the task."""
    token = _tokens.pop(task_id, None)
    if token is not None:
        _current.reset(token)
