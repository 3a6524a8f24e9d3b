"""A throw-away CA and a server certificate for 127.0.0.1, made at start-up."""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

VALID_DAYS = 30


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Enclave NSX stand-in"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])  # fmt: skip


def _builder(subject: x509.Name, issuer: x509.Name, key) -> x509.CertificateBuilder:
    """A certificate valid from a minute ago for VALID_DAYS."""
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=1)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=VALID_DAYS))
    )


def make_ca() -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A self-signed CA that can sign server certificates only."""
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        _builder(_name("Enclave NSX stand-in CA"), _name("Enclave NSX stand-in CA"), key)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return key, cert


def make_server(ca_key, ca_cert: x509.Certificate, host: str) -> tuple[ec.EllipticCurvePrivateKey, x509.Certificate]:
    """A server certificate for `host` (and localhost) signed by the CA."""
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    try:
        address = ipaddress.ip_address(host)
        if str(address) != "127.0.0.1":
            names.append(x509.IPAddress(address))
    except ValueError:
        names.append(x509.DNSName(host))
    ca_ski = ca_cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    cert = (
        _builder(_name(host), ca_cert.subject, key)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    return key, cert


def server_context(workdir: Path, host: str) -> ssl.SSLContext:
    """Write ca.pem (and the server's pair, key private) into workdir; the TLS context serving them."""
    ca_key, ca_cert = make_ca()
    key, cert = make_server(ca_key, ca_cert, host)
    pem = serialization.Encoding.PEM
    (workdir / "ca.pem").write_bytes(ca_cert.public_bytes(pem))
    (workdir / "server.pem").write_bytes(cert.public_bytes(pem) + ca_cert.public_bytes(pem))
    key_file = workdir / "server-key.pem"
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(workdir / "server.pem", key_file)
    return context
