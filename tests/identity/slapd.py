"""A throwaway OpenLDAP server (Debian's slapd) for the directory tests: StartTLS with a CA made here.

Like django-auth-ldap's own tests: a slapd.conf in a temporary directory, an LDIF of people and
groups loaded with slapadd, slapd on a free loopback port. `security tls=1` makes it refuse every
operation that is not protected by TLS, so a client that skipped StartTLS fails visibly.
"""

import contextlib
import datetime
import ipaddress
import socket
import subprocess
import time
from pathlib import Path

import ldap
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

BASE = "dc=example,dc=org"
ROOT_DN, ROOT_PW = f"cn=admin,{BASE}", "directory-root-pw"
PEOPLE, GROUPS = f"ou=people,{BASE}", f"ou=groups,{BASE}"
USERS = {  # uid: (uidNumber, password)
    "ada": (71001, "ada-pass"),
    "bob": (71002, "bob-pass"),
    "carl": (71003, "carl-pass"),
    "dirk": (71004, "dirk-pass"),
}
GROUP_MEMBERS = {"hpc-astro-pi": ["ada"], "hpc-astro": ["ada", "bob"], "hpc-admins": ["dirk"], "choir": ["carl"]}
CLUBS = f"ou=clubs,{GROUPS}"  # groups anyone may create: carl's club is also called hpc-admins
CLUB_MEMBERS = {"hpc-admins": ["carl"]}
CONFIG = """include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile {dir}/slapd.pid
TLSCACertificateFile {dir}/ca.pem
TLSCertificateFile {dir}/server.pem
TLSCertificateKeyFile {dir}/server.key
security tls=1
database mdb
maxsize 10485760
suffix "{base}"
rootdn "{root}"
rootpw {root_pw}
directory {dir}/db
access to attrs=userPassword by anonymous auth by self write by * none
access to * by * read
"""


def user_dn(uid: str) -> str:
    return f"uid={uid},{PEOPLE}"


def group_dn(cn: str) -> str:
    return f"cn={cn},{GROUPS}"


def _ldif() -> str:
    entries = [f"dn: {BASE}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example",
               f"dn: {PEOPLE}\nobjectClass: organizationalUnit\nou: people",
               f"dn: {GROUPS}\nobjectClass: organizationalUnit\nou: groups",
               f"dn: {CLUBS}\nobjectClass: organizationalUnit\nou: clubs"]  # fmt: skip
    for uid, (number, password) in USERS.items():
        entries.append(
            f"dn: {user_dn(uid)}\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\nuid: {uid}\n"
            f"cn: {uid.title()} Example\nsn: Example\ngivenName: {uid.title()}\nmail: {uid}@example.org\n"
            f"uidNumber: {number}\ngidNumber: {number}\nhomeDirectory: /home/{uid}\nuserPassword: {password}"
        )
    for cn, members in GROUP_MEMBERS.items():
        lines = "\n".join(f"member: {user_dn(m)}" for m in members)
        entries.append(f"dn: {group_dn(cn)}\nobjectClass: groupOfNames\ncn: {cn}\n{lines}")
    for cn, members in CLUB_MEMBERS.items():
        lines = "\n".join(f"member: {user_dn(m)}" for m in members)
        entries.append(f"dn: cn={cn},{CLUBS}\nobjectClass: groupOfNames\ncn: {cn}\n{lines}")
    return "\n\n".join(entries) + "\n"


def _certificates(directory: Path) -> None:
    """A CA and a server certificate for 127.0.0.1 signed by it (PEM files slapd and the client read)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Enclave test directory CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .sign(ca_key, hashes.SHA256()))  # fmt: skip
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                          x509.DNSName("localhost")]), critical=False)
              .sign(ca_key, hashes.SHA256()))  # fmt: skip
    (directory / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (directory / "server.pem").write_bytes(server.public_bytes(serialization.Encoding.PEM))
    (directory / "server.key").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                             serialization.PrivateFormat.PKCS8,
                                                             serialization.NoEncryption()))  # fmt: skip
    (directory / "server.key").chmod(0o600)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Slapd:
    """One slapd process; `uri`, `ca_file`, and an admin connection to change the directory."""

    def __init__(self, directory: Path):
        self.dir = directory
        (directory / "db").mkdir(parents=True)
        _certificates(directory)
        config = directory / "slapd.conf"
        config.write_text(CONFIG.format(dir=directory, base=BASE, root=ROOT_DN, root_pw=ROOT_PW))
        (directory / "data.ldif").write_text(_ldif())
        subprocess.run(["slapadd", "-f", str(config), "-l", str(directory / "data.ldif")], check=True,
                       capture_output=True)  # fmt: skip
        self.port = _free_port()
        self.uri, self.ca_file = f"ldap://127.0.0.1:{self.port}", str(directory / "ca.pem")
        self.proc = subprocess.Popen(["slapd", "-f", str(config), "-h", self.uri, "-d", "0"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
        self._wait_up()

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"slapd exited: {self.proc.stderr.read().decode(errors='replace')[-2000:]}")
            try:
                self.admin().unbind_s()
                return
            except ldap.LDAPError:
                time.sleep(0.2)
        raise RuntimeError("slapd did not answer in 20 s")

    def admin(self):
        """A root connection over StartTLS, for tests that change groups."""
        conn = ldap.initialize(self.uri)
        conn.set_option(ldap.OPT_X_TLS_CACERTFILE, self.ca_file)
        conn.set_option(ldap.OPT_X_TLS_REQUIRE_CERT, ldap.OPT_X_TLS_DEMAND)
        conn.set_option(ldap.OPT_X_TLS_NEWCTX, 0)
        conn.set_option(ldap.OPT_NETWORK_TIMEOUT, 5)
        conn.start_tls_s()
        conn.simple_bind_s(ROOT_DN, ROOT_PW)
        return conn

    def set_members(self, cn: str, uids: list[str]) -> None:
        conn = self.admin()
        try:
            conn.modify_s(group_dn(cn), [(ldap.MOD_REPLACE, "member", [user_dn(u).encode() for u in uids])])
        finally:
            conn.unbind_s()

    @contextlib.contextmanager
    def without_user(self, uid: str):
        """The person's entry deleted from the directory for the block (as when they leave), then restored."""
        conn = self.admin()
        try:
            [(dn, attrs)] = conn.search_s(user_dn(uid), ldap.SCOPE_BASE)
            conn.delete_s(dn)
            yield
        finally:
            if conn.search_s(PEOPLE, ldap.SCOPE_ONELEVEL, f"(uid={uid})") == []:
                conn.add_s(dn, list(attrs.items()))
            conn.unbind_s()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
