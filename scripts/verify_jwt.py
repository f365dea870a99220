#!/usr/bin/env python3
"""Verify an ES256 JWT (as sent to APNs) against a P-256 public key, independently of PushRelay.

Usage: verify_jwt.py <jwt> <public key PEM file>
Exit 0 if the header says ES256, the signature (raw 64-byte R||S, RFC 7518 section 3.4) verifies
over "<header>.<claims>" with ECDSA P-256 / SHA-256, and the parts are unpadded base64url.
Exit 1 if verification fails, 2 on usage or malformed input. Uses the Python `cryptography`
package, so the tests that call it check our OpenSSL-based signer against other code.
"""
import base64
import json
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


def b64url_decode(part):
    if not B64URL.match(part):
        raise ValueError("not unpadded base64url: %r" % part[:20])
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    jwt, key_path = argv[1], argv[2]
    parts = jwt.split(".")
    if len(parts) != 3:
        print("malformed JWT: expected 3 parts, got %d" % len(parts), file=sys.stderr)
        return 2
    try:
        header = json.loads(b64url_decode(parts[0]))
        signature = b64url_decode(parts[2])
        b64url_decode(parts[1])
    except ValueError as e:
        print("malformed JWT: %s" % e, file=sys.stderr)
        return 2
    if header.get("alg") != "ES256":
        print("header alg is %r, expected ES256" % header.get("alg"), file=sys.stderr)
        return 1
    if len(signature) != 64:
        print("signature is %d bytes, expected raw R||S of 64" % len(signature), file=sys.stderr)
        return 1
    with open(key_path, "rb") as f:
        key = serialization.load_pem_public_key(f.read())
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != "secp256r1":
        print("public key is not EC P-256", file=sys.stderr)
        return 2
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:], "big")
    try:
        key.verify(utils.encode_dss_signature(r, s), (parts[0] + "." + parts[1]).encode("ascii"),
                   ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        print("signature does not verify", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
