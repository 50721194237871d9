"""The JSON schemas of gpu-stacks' documents (docs/schemas/), for tests that validate real output against them."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import jsonschema
from referencing import Registry, Resource

from tests.conftest import REPO

SCHEMAS = REPO / "docs" / "schemas"


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    """docs/schemas/<name>.schema.json (JSON Schema 2020-12), its references to the folder's other schemas
    (common.schema.json) resolved by file name."""
    documents = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.schema.json")}
    registry: Registry[Any] = Registry().with_resources(
        (file, Resource.from_contents(document)) for file, document in documents.items()
    )
    document = documents[f"{name}.schema.json"]
    checker = jsonschema.Draft202012Validator
    checker.check_schema(document)
    return checker(document, registry=registry, format_checker=checker.FORMAT_CHECKER)


def schema_errors(name: str, document: Any) -> list[str]:
    """Where `document` breaks docs/schemas/<name>.schema.json, one line each; [] when it is valid."""
    return [f"/{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(name).iter_errors(document)]
