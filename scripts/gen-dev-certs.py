#!/usr/bin/env python3
"""Generate the development/test key material in certs/dev/.

Everything here is for tests, the quick start and benchmarks against apns-mock only: a private
CA, a server certificate for localhost, a client certificate (certificate auth), a .p8 signing
key (token auth) and deliberately broken files for the credential-error tests. Nothing here is
trusted by Apple. Re-run to regenerate (certificates are valid for 20 years).
Requires the Python `cryptography` package and the `openssl` command (for the legacy .p12).

`--extras-only` writes only the credential-parsing extras (legacy .p12, encrypted and traditional
keys, chain file, cert-only .p12), derived from the client.pem/client.key already in OUT, so they
can be added without regenerating the certificates other tests and tools already use.
"""
import datetime as dt
import ipaddress
import os
import subprocess
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import NameOID, ExtendedKeyUsageOID

ARGS = [a for a in sys.argv[1:] if a != "--extras-only"]
EXTRAS_ONLY = "--extras-only" in sys.argv[1:]
OUT = ARGS[0] if ARGS else os.path.join(os.path.dirname(__file__), "..", "certs", "dev")
os.makedirs(OUT, exist_ok=True)
NOW = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
YEARS20 = dt.timedelta(days=365 * 20)


def write(name, data, mode=0o644):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    os.chmod(path, mode)


def pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "PushRelay development")])


def cert(subject_cn, key, issuer_cert, issuer_key, *, ca=False, server=False, client=False,
         not_before=None, not_after=None):
    b = (x509.CertificateBuilder()
         .subject_name(name(subject_cn))
         .issuer_name(issuer_cert.subject if issuer_cert else name(subject_cn))
         .public_key(key.public_key())
         .serial_number(x509.random_serial_number())
         .not_valid_before(not_before or NOW - dt.timedelta(days=1))
         .not_valid_after(not_after or NOW + YEARS20)
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        b = b.add_extension(x509.KeyUsage(True, False, False, False, False, True, True, False, False), critical=True)
    if server:
        b = b.add_extension(x509.SubjectAlternativeName([
            x509.DNSName("localhost"), x509.DNSName("api.push.mock"),
            x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.IPAddress(ipaddress.ip_address("::1"))]),
            critical=False)
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    if client:
        b = b.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    return b.sign(issuer_key or key, hashes.SHA256())


def generate_extras():
    """Credential-parsing fixtures derived from the existing client certificate and key."""
    client_pem = os.path.join(OUT, "client.pem")
    client_key = os.path.join(OUT, "client.key")
    with open(client_pem, "rb") as f:
        cl = x509.load_pem_x509_certificate(f.read())
    with open(client_key, "rb") as f:
        cl_key = serialization.load_pem_private_key(f.read(), password=None)
    with open(os.path.join(OUT, "ca.pem"), "rb") as f:
        ca_pem = f.read()

    # What macOS Keychain exports: RC2-40 for the certificate bag, 3DES for the key, SHA-1 MAC.
    # OpenSSL 3 reads RC2 only with its "legacy" provider loaded.
    legacy = os.path.join(OUT, "client-legacy.p12")
    subprocess.run(["openssl", "pkcs12", "-export", "-legacy", "-in", client_pem, "-inkey", client_key,
                    "-name", "pushrelay-client", "-passout", "pass:secret", "-out", legacy], check=True)
    os.chmod(legacy, 0o600)
    # The client key encrypted with a password (PKCS#8, PBES2/AES-256) and in traditional format.
    write("client-encrypted.key", cl_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret")), 0o600)
    write("client-traditional.key", cl_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()), 0o600)
    # Leaf followed by its issuer: a certificate file carrying a chain.
    write("client-chain.pem", cl.public_bytes(serialization.Encoding.PEM) + ca_pem)

    bad = os.path.join(OUT, "bad")
    os.makedirs(bad, exist_ok=True)
    # A .p12 holding only the certificate (a Keychain export without the private key).
    with open(os.path.join(bad, "cert-only.p12"), "wb") as f:
        f.write(pkcs12.serialize_key_and_certificates(
            b"cert-only", None, cl, None, serialization.BestAvailableEncryption(b"secret")))
    # A password-protected P-256 key: Apple's .p8 files are never encrypted.
    with open(os.path.join(bad, "encrypted.p8"), "wb") as f:
        f.write(ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(b"secret")))


def generate_base():
    # Private CA that signs the mock's server certificate and the client certificates.
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = cert("PushRelay Dev CA", ca_key, None, None, ca=True)
    write("ca.pem", ca.public_bytes(serialization.Encoding.PEM))
    write("ca.key", pem_key(ca_key), 0o600)

    # apns-mock's TLS server certificate (localhost, 127.0.0.1, ::1).
    srv_key = ec.generate_private_key(ec.SECP256R1())
    srv = cert("localhost", srv_key, ca, ca_key, server=True)
    write("server.pem", srv.public_bytes(serialization.Encoding.PEM))
    write("server.key", pem_key(srv_key), 0o600)

    # Certificate auth: client certificate shaped like Apple's push certificate (RSA 2048).
    cl_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cl = cert("Apple Push Services: com.example.pushrelay", cl_key, ca, ca_key, client=True)
    write("client.pem", cl.public_bytes(serialization.Encoding.PEM))
    write("client.key", pem_key(cl_key), 0o600)
    write("client.p12", pkcs12.serialize_key_and_certificates(
        b"pushrelay-client", cl_key, cl, None, serialization.BestAvailableEncryption(b"secret")), 0o600)
    write("client-nopass.p12", pkcs12.serialize_key_and_certificates(
        b"pushrelay-client", cl_key, cl, None, serialization.NoEncryption()), 0o600)

    # Token auth: a .p8 (PKCS#8 PEM, P-256) signing key and its public key for the mock.
    p8 = ec.generate_private_key(ec.SECP256R1())
    write("AuthKey_DEVKEY1234.p8", pem_key(p8), 0o600)
    write("AuthKey_DEVKEY1234.pub.pem", p8.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))

    # Broken material for the credential-error tests.
    bad = os.path.join(OUT, "bad")
    os.makedirs(bad, exist_ok=True)
    def write_bad(n, data):
        with open(os.path.join(bad, n), "wb") as f:
            f.write(data)
    exp_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    exp = cert("Apple Push Services: expired", exp_key, ca, ca_key, client=True,
               not_before=NOW - dt.timedelta(days=400), not_after=NOW - dt.timedelta(days=30))
    write_bad("expired.pem", exp.public_bytes(serialization.Encoding.PEM))
    write_bad("expired.key", pem_key(exp_key))
    write_bad("expired.p12", pkcs12.serialize_key_and_certificates(b"expired", exp_key, exp, None,
                                                                   serialization.NoEncryption()))
    write_bad("rsa.p8", pem_key(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    write_bad("p384.p8", pem_key(ec.generate_private_key(ec.SECP384R1())))
    write_bad("garbage.p8", b"this is not a key\n")
    write_bad("truncated.p8", pem_key(ec.generate_private_key(ec.SECP256R1()))[:120])
    write_bad("garbage.p12", os.urandom(512))
    write_bad("other.key", pem_key(rsa.generate_private_key(public_exponent=65537, key_size=2048)))


if not EXTRAS_ONLY:
    generate_base()
generate_extras()
print("wrote", os.path.abspath(OUT))
