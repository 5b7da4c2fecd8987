"""Helpers for the schema tests: locate the repo, load schemas and examples, load schemas/publish.

Only the standard library and jsonschema are used, so other Python tests (the bus client, MCAP checks)
can import this module too.
"""

import importlib.machinery
import importlib.util
import json
import os
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
SCHEMAS = REPO / "schemas"
PUBLISHED = SCHEMAS / "_published"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
INT53 = 2**53 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

# Every message UIBus publishes or reads (issue 2, point 4), by schema id = directory name.
SCHEMA_IDS = [
    "envelope", "touch.frame", "touch.script", "gesture.event", "scene",
    "state.scrollView", "state.pullToRefresh", "state.pager", "state.slideTable", "state.drawer",
    "state.numberPad", "state.canvas", "state.zoomView", "state.memoBoard",
    "component.command", "memo.command", "memo.ack", "memo.changed", "memo.snapshot",
    "memoBoard.delta", "recognizer.config",
    "render.frame", "render.image", "render.tiles", "render.animation", "health", "lifecycle", "network",
]


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def schema_paths():
    """Every current schema file, as (schema id, major, path), skipping _published."""
    out = []
    for d in sorted(SCHEMAS.iterdir()):
        if not d.is_dir() or d.name.startswith(("_", ".")):
            continue
        for f in sorted(d.glob("v*.json")):
            if f.stem[1:].isdigit():
                out.append((d.name, int(f.stem[1:]), f))
    return out


def latest_schema(schema_id):
    """(major, schema dict) of the highest major of schema_id."""
    majors = [(m, p) for sid, m, p in schema_paths() if sid == schema_id]
    major, path = max(majors)
    return major, load_json(path)


def example_paths(schema_id):
    return sorted((SCHEMAS / schema_id / "examples").glob("*.json"))


def load_publish_module():
    """Import schemas/publish (a script without .py) as a module."""
    path = str(SCHEMAS / "publish")
    loader = importlib.machinery.SourceFileLoader("uibus_publish", path)
    spec = importlib.util.spec_from_loader("uibus_publish", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def walk_schema(node, path="#"):
    """Yield (json pointer, subschema) for node and every subschema below it."""
    if not isinstance(node, dict):
        return
    yield path, node
    for kw in ("properties", "$defs", "patternProperties", "dependentSchemas"):
        for name, sub in node.get(kw, {}).items():
            yield from walk_schema(sub, f"{path}/{kw}/{name}")
    for kw in ("items", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"):
        if isinstance(node.get(kw), dict):
            yield from walk_schema(node[kw], f"{path}/{kw}")
    for kw in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for i, sub in enumerate(node.get(kw, [])):
            yield from walk_schema(sub, f"{path}/{kw}/{i}")


def walk_instance(value, schema, path="$"):
    """Yield (path, value, subschema-or-None) for value and everything inside it, following
    properties / additionalProperties / items of the schema."""
    yield path, value, schema
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, dict):
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            yield from walk_instance(v, sub, f"{path}.{k}")
    elif isinstance(value, list):
        items = schema.get("items") if isinstance(schema.get("items"), dict) else None
        for i, v in enumerate(value):
            yield from walk_instance(v, items, f"{path}[{i}]")
