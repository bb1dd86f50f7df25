"""What a connectd answer to hostile input may look like: shared by rest_fuzz.py and the
schemathesis hooks. Pure functions of (method, path template, status, body bytes).

The contract (docs/openapi.yaml, rest/README.md):
  * every 4xx/5xx body is exactly {"error_code": <int == status>, "message": <string>} and valid
    UTF-8 JSON, except GET /health's 500/503 (a WorkerStatus, as in Connect);
  * 5xx only where Connect answers 5xx too, with Connect's message (ALLOWED_5XX); a 5xx anywhere
    else, including "Request timed out" (a stuck herder), is a bug.
"""

import json
import re

# (method, path template) -> messages a 500 may carry there, in a standalone worker.
ALLOWED_5XX = {
    # Connect wraps validation failures in an ExecutionException: "<ExceptionClass>: <message>".
    ("PUT", "/connector-plugins/{plugin}/config/validate"): [
        r"^org\.apache\.kafka\.connect\.errors\.\w+Exception: ",
        r"^org\.apache\.kafka\.connect\.runtime\.rest\.errors\.BadRequestException: ",
    ],
    # StandaloneHerder throws UnsupportedOperationException for the internal endpoints.
    ("POST", "/connectors/{connector}/tasks"): [
        r"^Kafka Connect in standalone mode does not support externally setting task "
        r"configurations\.$",
    ],
    ("PUT", "/connectors/{connector}/fence"): [
        r"^Kafka Connect in standalone mode does not support exactly-once source connectors\.$",
    ],
}

# Route templates of docs/openapi.yaml, to classify raw requests (rest_fuzz.py's own cases).
TEMPLATES = [
    ("GET", "/"),
    ("GET", "/health"),
    ("GET", "/metrics"),
    ("GET", "/connectors"),
    ("POST", "/connectors"),
    ("GET", "/connectors/{connector}"),
    ("DELETE", "/connectors/{connector}"),
    ("GET", "/connectors/{connector}/config"),
    ("PUT", "/connectors/{connector}/config"),
    ("PATCH", "/connectors/{connector}/config"),
    ("GET", "/connectors/{connector}/status"),
    ("GET", "/connectors/{connector}/tasks"),
    ("POST", "/connectors/{connector}/tasks"),
    ("GET", "/connectors/{connector}/tasks/{task}/status"),
    ("POST", "/connectors/{connector}/tasks/{task}/restart"),
    ("POST", "/connectors/{connector}/restart"),
    ("PUT", "/connectors/{connector}/pause"),
    ("PUT", "/connectors/{connector}/resume"),
    ("PUT", "/connectors/{connector}/stop"),
    ("PUT", "/connectors/{connector}/fence"),
    ("GET", "/connectors/{connector}/topics"),
    ("PUT", "/connectors/{connector}/topics/reset"),
    ("GET", "/connectors/{connector}/offsets"),
    ("PATCH", "/connectors/{connector}/offsets"),
    ("DELETE", "/connectors/{connector}/offsets"),
    ("GET", "/connector-plugins"),
    ("GET", "/connector-plugins/{plugin}/config"),
    ("PUT", "/connector-plugins/{plugin}/config/validate"),
    ("GET", "/admin/loggers"),
    ("GET", "/admin/loggers/{logger}"),
    ("PUT", "/admin/loggers/{logger}"),
    ("GET", "/mirror/flows"),
    ("GET", "/mirror/flows/{source}/{target}"),
    ("GET", "/mirror/task-metrics"),
]


def template_of(method, raw_path):
    """The documented (method, template) a raw request path matches, or None (404/405 expected).

    Matching is on raw segments: an encoded '/' (%2F) stays inside its segment, as in the server.
    """
    path = raw_path.split("?", 1)[0]
    segments = [s for s in path.strip("/").split("/")] if path.strip("/") else []
    effective = "GET" if method == "HEAD" else method
    for m, template in TEMPLATES:
        if m != effective:
            continue
        parts = [s for s in template.strip("/").split("/")] if template != "/" else []
        if len(parts) != len(segments):
            continue
        if all(p.startswith("{") or p == s for p, s in zip(parts, segments)):
            return (m, template)
    return None


def check_response(method, template, status, body):
    """None if (status, body) keeps the contract for this operation, else what is wrong.

    `template` may be None for a request that matches no documented operation.
    """
    if status < 400:
        return None
    if method == "HEAD":
        return None  # no body to check
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"{status} body is not valid UTF-8 ({e}): {body[:200]!r}"
    try:
        doc = json.loads(text)
    except ValueError as e:
        return f"{status} body is not JSON ({e}): {text[:200]!r}"
    if template == "/health" and status in (500, 503):
        if not (isinstance(doc, dict) and set(doc) == {"status", "message"}):
            return f"/health {status} body is not a WorkerStatus: {text[:200]!r}"
        return None
    if not isinstance(doc, dict) or set(doc) != {"error_code", "message"}:
        return f"{status} body is not {{error_code, message}}: {text[:200]!r}"
    if not isinstance(doc["error_code"], int) or isinstance(doc["error_code"], bool):
        return f"{status} error_code is not an integer: {text[:200]!r}"
    if doc["error_code"] != status:
        return f"{status} answered with error_code {doc['error_code']}"
    if not isinstance(doc["message"], str):
        return f"{status} message is not a string: {text[:200]!r}"
    if status >= 500:
        allowed = ALLOWED_5XX.get((method, template), [])
        if not any(re.search(p, doc["message"]) for p in allowed):
            return f"undocumented {status} on {method} {template}: {doc['message'][:300]!r}"
    return None
