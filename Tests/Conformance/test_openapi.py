"""The served OpenAPI document is valid OpenAPI 3 and equals the repository's copy."""

import urllib.request
from pathlib import Path

import pytest
import yaml

openapi_spec_validator = pytest.importorskip("openapi_spec_validator")


def test_served_document_is_valid_openapi(relay):
    with urllib.request.urlopen(relay.url + "/openapi.yaml", timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    document = yaml.safe_load(text)
    openapi_spec_validator.validate(document)
    repository_copy = Path(__file__).resolve().parents[2] / "openapi" / "push-relay.yaml"
    assert text == repository_copy.read_text()
