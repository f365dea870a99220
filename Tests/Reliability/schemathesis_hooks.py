"""Schemathesis hooks for test_fuzz_rest.py: every 4xx the relay answers must carry a Sendbird
error body, `{"message": str, "code": int, "error": true}`."""

import schemathesis


@schemathesis.check
def sendbird_error_body(ctx, response, case):
    if not 400 <= response.status_code < 500:
        return None
    body = response.json()
    if not (isinstance(body, dict) and isinstance(body.get("message"), str) and body["message"]
            and isinstance(body.get("code"), int) and body.get("error") is True):
        raise AssertionError(f"{response.status_code} without a Sendbird error body: {response.text[:200]}")
    return None
