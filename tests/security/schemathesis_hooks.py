"""Loaded by the schemathesis CLI (SCHEMATHESIS_HOOKS) that tests/security/test_schemathesis.py runs.

The CLI runs in its own process against the live test server; this module sets Django up on the same
test database (as the application's role, like the Celery worker) so that
- after every accepted write the check below compiles the whole site policy from what was committed;
- a schema-valid request refused with 400 may name only what a schema cannot state (an id that does not
  exist, a name already taken, a state or quota rule), never a type, format, length, range or choice
  (`schema_states_the_grammar`);
- the fuzzing user always has a valid write token: the fuzzer may revoke the very token it runs with
  (`POST /tokens/{id}/revoke/` is an operation like any other), and then gets a fresh one.
"""

import inspect
import json
import os
import re
import secrets

import django

django.setup()

import schemathesis  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import close_old_connections  # noqa: E402
from rest_framework import fields, relations  # noqa: E402
from schemathesis.generation.modes import GenerationMode  # noqa: E402

from audit.context import acting_as, system_actor  # noqa: E402
from tests.security.framework import assert_site_compiles  # noqa: E402
from users.models import APIToken, TokenScope  # noqa: E402
from users.services import create_token  # noqa: E402

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


@schemathesis.check
def site_policy_still_compiles(ctx, response, case):
    """An accepted write (2xx) leaves a site policy that compiles (nft and NSX)."""
    if case.method.upper() in WRITES and 200 <= response.status_code < 300:
        close_old_connections()
        assert_site_compiles()
    return None


def _grammar_messages() -> re.Pattern:
    """DRF's own refusals of a value's type, format, length, range or choice, as one pattern.

    Only `does_not_exist` (an id or slug no object has) is left out: which ids exist is data, not schema.
    """
    templates = set()
    for module in (fields, relations):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            for code, text in getattr(cls, "default_error_messages", {}).items():
                if code != "does_not_exist":
                    templates.add(str(text))
    parts = [re.sub(r"\\\{\w+\\\}", ".*", re.escape(t)) for t in sorted(templates)]
    return re.compile("|".join(f"(?:{p})" for p in parts))


GRAMMAR = _grammar_messages()


def _messages(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, list):
        for item in value:
            yield from _messages(item)


@schemathesis.check
def schema_states_the_grammar(ctx, response, case):
    """A schema-valid request refused with 400 names only what no schema can state."""
    if response.status_code != 400 or case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        raise AssertionError("a 400 that is not JSON") from None
    grammar = sorted({m for m in _messages(body) if GRAMMAR.fullmatch(m)})
    assert not grammar, f"the schema allows what the API refuses: {grammar}"
    return None


@schemathesis.auth(refresh_interval=None)
class FuzzUserToken:
    """A write token of ENCLAVE_FUZZ_USER, minted again whenever the fuzzer has revoked it."""

    def __init__(self):
        self.token, self.raw = None, ""

    def get(self, case, ctx):
        close_old_connections()
        if self.token is None or not APIToken.objects.filter(pk=self.token.pk, revoked_at__isnull=True).exists():
            user = get_user_model().objects.get(username=os.environ["ENCLAVE_FUZZ_USER"])
            with acting_as(system_actor("schemathesis")):
                self.token, self.raw = create_token(user, f"fuzz-{secrets.token_hex(4)}", scope=TokenScope.WRITE)
        return self.raw

    def set(self, case, data, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
