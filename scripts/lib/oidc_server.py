#!/usr/bin/env python3
"""A throw-away OAuth 2 identity provider on loopback for `scripts/kafka start --oauth`.

It serves what a Kafka broker's OAUTHBEARER listener and its clients need, and nothing else:
  GET  /jwks   the JSON Web Key Set of its one RSA key (the broker's
               OAuthBearerValidatorCallbackHandler verifies token signatures with it);
  POST /token  the client-credentials grant (RFC 6749 4.4): HTTP Basic client id and secret,
               form body grant_type=client_credentials[&scope=...]; answers an RS256 JWT with
               iss, aud, sub (the client's principal), iat, exp and scope, or 401;
  GET  /stats  {"issued": {client id: tokens issued}, "refused": n} for tests.

Clients come from DIR/clients.json ({"id": {"secret": "...", "sub": "..."}}), the token
lifetime in seconds from DIR/token_seconds (read at each request, so a test can change it).
Keys and signatures come from the openssl command line tool: no Python package is needed.

Usage: oidc_server.py DIR PORT   (writes DIR/key.pem; serves until killed)
"""

import base64
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse

ISSUER = "connectd-test-idp"
AUDIENCE = "kafka"
KEY_ID = "connectd-test"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Provider:
    def __init__(self, directory):
        self.directory = directory
        self.key = os.path.join(directory, "key.pem")
        if not os.path.exists(self.key):
            subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt",
                            "rsa_keygen_bits:2048", "-out", self.key],
                           check=True, capture_output=True)
        modulus = subprocess.run(["openssl", "rsa", "-in", self.key, "-noout", "-modulus"],
                                 check=True, capture_output=True, text=True).stdout
        n = bytes.fromhex(modulus.strip().split("=", 1)[1])
        self.jwks = {"keys": [{"kty": "RSA", "kid": KEY_ID, "use": "sig", "alg": "RS256",
                               "n": b64url(n), "e": b64url((65537).to_bytes(3, "big"))}]}
        self.lock = threading.Lock()
        self.issued = {}
        self.refused = 0

    def clients(self):
        with open(os.path.join(self.directory, "clients.json")) as f:
            return json.load(f)

    def lifetime(self):
        try:
            with open(os.path.join(self.directory, "token_seconds")) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return 3600

    def sign(self, data):
        return subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.key], input=data,
                              check=True, capture_output=True).stdout

    def token(self, client_id, sub, scope):
        now = int(time.time())
        header = {"alg": "RS256", "typ": "JWT", "kid": KEY_ID}
        claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": sub, "iat": now,
                  "exp": now + self.lifetime(), "scope": scope or "kafka"}
        signing_input = (b64url(json.dumps(header).encode()) + "." +
                         b64url(json.dumps(claims).encode()))
        with self.lock:
            self.issued[client_id] = self.issued.get(client_id, 0) + 1
        return signing_input + "." + b64url(self.sign(signing_input.encode()))


class Handler(http.server.BaseHTTPRequestHandler):
    provider = None

    def log_message(self, fmt, *args):
        sys.stderr.write("%s %s\n" % (time.strftime("%H:%M:%S"), fmt % args))

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/jwks":
            return self.answer(200, self.provider.jwks)
        if self.path == "/stats":
            with self.provider.lock:
                return self.answer(200, {"issued": dict(self.provider.issued),
                                         "refused": self.provider.refused})
        self.answer(404, {"error": "not_found"})

    def refuse(self, error):
        with self.provider.lock:
            self.provider.refused += 1
        self.answer(401 if error == "invalid_client" else 400, {"error": error})

    def do_POST(self):
        if self.path != "/token":
            return self.answer(404, {"error": "not_found"})
        length = int(self.headers.get("Content-Length") or 0)
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if form.get("grant_type") != ["client_credentials"]:
            return self.refuse("unsupported_grant_type")
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Basic "):
            return self.refuse("invalid_client")
        try:
            client_id, secret = base64.b64decode(auth[6:]).decode().split(":", 1)
        except ValueError:
            return self.refuse("invalid_client")
        client = self.provider.clients().get(client_id)
        if client is None or client["secret"] != secret:
            return self.refuse("invalid_client")
        scope = form.get("scope", [""])[0]
        token = self.provider.token(client_id, client["sub"], scope)
        self.answer(200, {"access_token": token, "token_type": "Bearer",
                          "expires_in": self.provider.lifetime()})


def main():
    directory, port = sys.argv[1], int(sys.argv[2])
    Handler.provider = Provider(directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
