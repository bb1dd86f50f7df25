"""schemathesis hooks for rest_fuzz.py: connectd's error contract as a check, and a request counter.

Loaded by schemathesis through SCHEMATHESIS_HOOKS. The check `connectd_error_contract`:
  * every 4xx/5xx body is exactly {"error_code": <int == status>, "message": <string>} in valid
    UTF-8 JSON (GET /health's 500/503 carry a WorkerStatus, as in Connect);
  * a 5xx is allowed only where docs/openapi.yaml documents it *and* its message is one Connect
    gives there (fuzz_policy.ALLOWED_5XX); anything else (a crash, "Request timed out") fails.
The after_call hook counts every request schemathesis sends; the count is written to
$CONNECTD_FUZZ_COUNT_FILE when the process exits.
"""

import atexit
import os
import sys
import threading

import schemathesis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzz_policy  # noqa: E402

_lock = threading.Lock()
_count = 0


@schemathesis.hook
def after_call(context, case, response):
    global _count
    with _lock:
        _count += 1


def _write_count():
    path = os.environ.get("CONNECTD_FUZZ_COUNT_FILE")
    if path:
        with open(path, "w") as f:
            f.write(str(_count))


atexit.register(_write_count)


@schemathesis.check
def connectd_error_contract(ctx, response, case):
    problem = fuzz_policy.check_response(
        case.operation.method.upper(), case.operation.path, response.status_code, response.content
    )
    if problem:
        raise AssertionError(problem)
    return None
