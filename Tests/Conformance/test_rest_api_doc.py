"""docs/rest-api.md covers the API the relay serves: every route (method and path) of the OpenAPI
document appears in one of its tables, and every route its tables name is in the document.

A table names a route as a code span `METHOD /path` (or `GET, PUT /path` for several methods).
A path parameter with an enum (the token type) is written either as `{token_type}` or once per
value (`/push/apns`, `/push/gcm`, `/push/huawei`), which is what readers grep for."""

import itertools
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
ROUTE = re.compile(r"^((?:GET|POST|PUT|DELETE|PATCH)(?:,\s*(?:GET|POST|PUT|DELETE|PATCH))*)\s+(/\S*)$")


def documented_routes(markdown: str) -> set:
    routes = set()
    for line in markdown.splitlines():
        if not line.lstrip().startswith("|"):
            continue
        for span in re.findall(r"`([^`]+)`", line):
            match = ROUTE.match(span.strip())
            if match:
                for method in re.split(r",\s*", match.group(1)):
                    routes.add((method, match.group(2)))
    return routes


def openapi_routes(document: dict) -> dict:
    """(METHOD, path) → the set of spellings the doc may use for it."""
    parameters = document.get("components", {}).get("parameters", {})

    def resolve(parameter):
        if "$ref" in parameter:
            return parameters[parameter["$ref"].rsplit("/", 1)[1]]
        return parameter

    routes = {}
    for path, item in document["paths"].items():
        shared = [resolve(p) for p in item.get("parameters", [])]
        for method, operation in item.items():
            if method.upper() not in METHODS:
                continue
            every = shared + [resolve(p) for p in operation.get("parameters", [])]
            enums = {p["name"]: p["schema"]["enum"] for p in every
                     if p.get("in") == "path" and "enum" in p.get("schema", {})}
            spellings = {path}
            if enums:
                names = sorted(enums)
                for values in itertools.product(*(enums[n] for n in names)):
                    spelled = path
                    for name, value in zip(names, values):
                        spelled = spelled.replace("{" + name + "}", value)
                    spellings.add(spelled)
            routes[(method.upper(), path)] = (spellings, enums)
    return routes


def load():
    document = yaml.safe_load((ROOT / "openapi" / "push-relay.yaml").read_text())
    markdown = (ROOT / "docs" / "rest-api.md").read_text()
    return openapi_routes(document), documented_routes(markdown)


def test_every_openapi_route_is_in_a_table_of_rest_api_md():
    routes, documented = load()
    missing = []
    for (method, path), (spellings, enums) in routes.items():
        if (method, path) in documented:
            continue
        expanded = spellings - {path}
        if not expanded or not all((method, s) in documented for s in expanded):
            missing.append(f"{method} {path}" + (f" (or once per {', '.join(enums)} value)" if enums else ""))
    assert not missing, "docs/rest-api.md lists no table row for: " + "; ".join(sorted(missing))


def test_every_route_a_table_names_is_served():
    routes, documented = load()
    known = {(method, spelling) for (method, _), (spellings, _) in routes.items() for spelling in spellings}
    unknown = sorted(f"{m} {p}" for m, p in documented - known)
    assert not unknown, "docs/rest-api.md names routes the OpenAPI document does not have: " + "; ".join(unknown)


def test_the_token_routes_are_listed_for_every_token_type():
    _, documented = load()
    for token_type in ("apns", "gcm", "huawei"):
        assert ("POST", f"/v3/users/{{user_id}}/push/{token_type}") in documented
        assert ("GET", f"/v3/push/device_tokens/{token_type}/{{token}}") in documented


def test_a_table_route_is_recognised_in_each_spelling():
    markdown = "| `GET, PUT /v3/a/{x}` | `POST /v3/b` and `DELETE /v3/c` |\n`GET /not/in/a/table`\n"
    assert documented_routes(markdown) == {("GET", "/v3/a/{x}"), ("PUT", "/v3/a/{x}"), ("POST", "/v3/b"),
                                           ("DELETE", "/v3/c")}
