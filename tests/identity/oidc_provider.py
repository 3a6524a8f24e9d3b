"""The npm package `oidc-provider` (a certified OpenID provider) started for the identity tests.

tools/oidc-provider/server.mjs with a JSON configuration written here: Enclave's client and another
application's (`other-app`, whose tokens Enclave must refuse), users with passwords, a `groups` claim and
a `uid_number` claim, PKCE required, refresh tokens, introspection (RFC 7662), logout.
"""

import json
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIENT_ID, CLIENT_SECRET, TEST_SECRET = "enclave", "enclave-test-client-secret", "test-only-groups-secret"
OTHER_ID, OTHER_SECRET = "other-app", "other-app-test-client-secret"  # another application at the same provider
USERS = {
    "olga": {"password": "olga-pass", "name": "Olga Example", "email": "olga@example.org",
             "groups": ["hpc-astro-pi"], "uid": 72001},
    "oscar": {"password": "oscar-pass", "name": "Oscar Example", "email": "oscar@example.org",
              "groups": ["hpc-astro"], "uid": 72002},
    "nomad": {"password": "nomad-pass", "name": "No Group", "email": "nomad@example.org", "groups": ["choir"]},
    # Access tokens that expire after a second.
    "brief": {"password": "brief-pass", "name": "Brief Example", "email": "brief@example.org",
              "groups": ["hpc-astro"], "uid": 72003, "access_token_ttl": 1},
    # Another provider account that claims olga's username (where users may edit theirs).
    "impostor": {"password": "impostor-pass", "username": "olga", "name": "Not Olga", "email": "x@example.org",
                 "groups": ["hpc-astro-pi"]},
}  # fmt: skip


OTHER_REDIRECT = "http://other-app.example/callback"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Provider:
    """One provider process; `issuer` and the endpoint URLs; `set_groups` moves a user between groups."""

    def __init__(self, directory: Path, redirect_bases: list[str]):
        self.port = _free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        config = {
            "port": self.port, "issuer": self.issuer, "cookie_key": "test-cookie-key", "test_secret": TEST_SECRET,
            "access_token_ttl": 600, "users": USERS,
            "clients": [{
                "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
                "redirect_uris": [f"{base}/oidc/callback/" for base in redirect_bases],
                "post_logout_redirect_uris": [f"{base}/login/" for base in redirect_bases],
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "client_secret_post",
            }, {
                "client_id": OTHER_ID, "client_secret": OTHER_SECRET,
                "redirect_uris": [OTHER_REDIRECT], "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"], "token_endpoint_auth_method": "client_secret_post",
            }],
        }  # fmt: skip
        path = directory / "provider.json"
        path.write_text(json.dumps(config))
        self.log = open(directory / "provider.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(["node", str(ROOT / "tools" / "oidc-provider" / "server.mjs"), str(path)],
                                     cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT)  # fmt: skip
        self._wait_up()

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the OpenID provider exited ({self.proc.returncode}); see {self.log.name}")
            try:
                urllib.request.urlopen(f"{self.issuer}/.well-known/openid-configuration", timeout=2).read()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the OpenID provider did not answer in 30 s")

    def env(self) -> dict[str, str]:
        """What a site sets to use this provider (ENCLAVE_OIDC_*)."""
        return {
            "ENCLAVE_OIDC_CLIENT_SECRET": CLIENT_SECRET,
            "ENCLAVE_OIDC_AUTHORIZATION_URL": f"{self.issuer}/auth",
            "ENCLAVE_OIDC_TOKEN_URL": f"{self.issuer}/token",
            "ENCLAVE_OIDC_USER_URL": f"{self.issuer}/me",
            "ENCLAVE_OIDC_JWKS_URL": f"{self.issuer}/jwks",
            "ENCLAVE_OIDC_INTROSPECTION_URL": f"{self.issuer}/token/introspection",
            "ENCLAVE_OIDC_ISSUER": self.issuer,
            "ENCLAVE_OIDC_LOGOUT_URL": f"{self.issuer}/session/end",
            "ENCLAVE_OIDC_SCOPES": "openid email profile groups posix",
            "ENCLAVE_OIDC_PROVIDER_NAME": "Test University",
        }

    def set_groups(self, user: str, groups: list[str]) -> None:
        data = f"user={user}&groups={','.join(groups)}".encode()
        request = urllib.request.Request(
            f"{self.issuer}/_test/groups", data=data, headers={"X-Test-Secret": TEST_SECRET}
        )
        urllib.request.urlopen(request, timeout=5).read()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def sign_in_at_provider(authorize_url: str, user: str, password: str | None = None) -> str:
    """Follow an authorization request through the provider's own login page (plain HTTP, no browser);
    return the redirect back to the client (its callback URL with code and state)."""
    import requests

    session = requests.Session()
    response = session.get(authorize_url, allow_redirects=True, timeout=10)  # ends on the login page
    form = response.url
    response = session.post(form, data={"login": user, "password": password or USERS[user]["password"]},
                            allow_redirects=False, timeout=10)  # fmt: skip
    while response.is_redirect:
        location = response.headers["Location"]
        if "/oidc/callback/" in location or location.startswith(OTHER_REDIRECT):
            return location
        response = session.get(requests.compat.urljoin(response.url, location), allow_redirects=False, timeout=10)
    raise AssertionError(f"the provider did not redirect back: {response.status_code} {response.text[:300]}")


def tokens_for(provider: "Provider", user: str, client: tuple[str, str] = (CLIENT_ID, CLIENT_SECRET)) -> dict:
    """An access and refresh token of `user` for a client (Enclave's unless told: authorization code + PKCE),
    as a CLI would."""
    import base64
    import hashlib
    import secrets
    import urllib.parse

    import requests

    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    client_id, secret = client
    redirect_uri = "http://testserver/oidc/callback/" if client_id == CLIENT_ID else OTHER_REDIRECT
    scope = "openid email profile groups posix offline_access"
    query = urllib.parse.urlencode({"client_id": client_id, "response_type": "code", "redirect_uri": redirect_uri,
                                    "scope": scope, "prompt": "consent", "state": "s", "code_challenge": challenge,
                                    "code_challenge_method": "S256"})  # fmt: skip
    back = sign_in_at_provider(f"{provider.issuer}/auth?{query}", user)
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(back).query)["code"][0]
    response = requests.post(f"{provider.issuer}/token", timeout=10, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier,
        "client_id": client_id, "client_secret": secret})  # fmt: skip
    response.raise_for_status()
    return response.json()


def refreshed(provider: "Provider", refresh_token: str) -> dict:
    import requests

    response = requests.post(f"{provider.issuer}/token", timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": refresh_token,
        "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET})  # fmt: skip
    response.raise_for_status()
    return response.json()
