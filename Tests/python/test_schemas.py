"""Message schemas: well-formed 2020-12 schemas, valid examples, and the additive-only rule.

Run: python3 -m pytest -q Tests/python/test_schemas.py   (needs pytest and jsonschema)
"""

import copy
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schemalib  # noqa: E402

publish = schemalib.load_publish_module()
SCHEMA_FILES = schemalib.schema_paths()
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def _ids(items):
    return [f"{sid}/v{major}" for sid, major, _ in items]


# ------------------------------------------------------------------------------------------ schemas

def test_every_planned_schema_exists():
    present = {sid for sid, _, _ in SCHEMA_FILES}
    missing = [sid for sid in schemalib.SCHEMA_IDS if sid not in present]
    assert not missing, f"schemas missing: {missing}"
    unplanned = sorted(present - set(schemalib.SCHEMA_IDS))
    assert not unplanned, f"add these to schemalib.SCHEMA_IDS: {unplanned}"


@pytest.mark.parametrize("sid,major,path", SCHEMA_FILES, ids=_ids(SCHEMA_FILES))
def test_schema_is_valid_2020_12(sid, major, path):
    schema = schemalib.load_json(path)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == schemalib.DRAFT
    assert schema["$id"] == f"uibus:{sid}/v{major}"
    assert schema.get("title") and schema.get("description")
    assert isinstance(schema.get("x-uibus-minor"), int) and schema["x-uibus-minor"] >= 0
    assert schema["type"] == "object"
    assert schema["properties"]
    assert set(schema["required"]) <= set(schema["properties"])


@pytest.mark.parametrize("sid,major,path", SCHEMA_FILES, ids=_ids(SCHEMA_FILES))
def test_schema_conventions(sid, major, path):
    """Every property is typed and described, snake_case, and no object is closed unless the schema
    is a document read once and refused on any unknown property ("x-uibus-closed", the scene)."""
    schema = schemalib.load_json(path)
    problems = []
    for where, node in schemalib.walk_schema(schema):
        if node.get("additionalProperties") is False and not schema.get("x-uibus-closed"):
            problems.append(f"{where}: additionalProperties false (readers must ignore unknown keys)")
        for name, prop in node.get("properties", {}).items():
            if not SNAKE.match(name):
                problems.append(f"{where}/properties/{name}: not snake_case")
            if where.split("/")[-2:-1] == ["if"] or "/if" in where:
                continue  # conditions of if/then rules only restate a property
            if "type" not in prop or not prop.get("description"):
                problems.append(f"{where}/properties/{name}: needs a type and a description")
        if "required" in node and "properties" in node:
            extra = set(node["required"]) - set(node["properties"])
            if extra:
                problems.append(f"{where}: required names without a property: {sorted(extra)}")
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------------------ examples

EXAMPLES = [(sid, major, ex) for sid, major, _ in SCHEMA_FILES for ex in schemalib.example_paths(sid)]


@pytest.mark.parametrize("sid", schemalib.SCHEMA_IDS)
def test_every_schema_has_examples(sid):
    assert len(schemalib.example_paths(sid)) >= 2, f"schemas/{sid}/examples/ needs at least 2 examples"


@pytest.mark.parametrize("sid,major,path", EXAMPLES, ids=[f"{s}:{p.name}" for s, _, p in EXAMPLES])
def test_example_validates(sid, major, path):
    schema = schemalib.load_json(schemalib.SCHEMAS / sid / f"v{major}.json")
    errors = sorted(Draft202012Validator(schema).iter_errors(schemalib.load_json(path)), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


@pytest.mark.parametrize("sid,major,path", EXAMPLES, ids=[f"{s}:{p.name}" for s, _, p in EXAMPLES])
def test_example_survives_a_messagepack_round_trip(sid, major, path):
    """Integers stay within ±2^53 (except fields marked x-uibus-int64, which stay within int64) and no
    float is written as a whole number (1.0), so JSON → MessagePack → JSON keeps the meaning."""
    text = path.read_text(encoding="utf-8")
    whole_floats = []

    def parse_float(token):
        if float(token).is_integer():
            whole_floats.append(token)
        return float(token)

    value = json.loads(text, parse_float=parse_float)
    assert not whole_floats, f"write whole numbers without a fraction: {whole_floats}"
    schema = schemalib.load_json(schemalib.SCHEMAS / sid / f"v{major}.json")
    for where, v, sub in schemalib.walk_instance(value, schema):
        if isinstance(v, bool) or not isinstance(v, int):
            continue
        if isinstance(sub, dict) and sub.get("x-uibus-int64"):
            assert schemalib.INT64_MIN <= v <= schemalib.INT64_MAX, f"{where}={v} outside int64"
        else:
            assert abs(v) <= schemalib.INT53, f"{where}={v} outside ±2^53"


def test_memo_command_has_one_example_per_op():
    _, schema = schemalib.latest_schema("memo.command")
    ops = schema["properties"]["op"]["enum"]
    names = [p.stem for p in schemalib.example_paths("memo.command")]
    assert sorted(names) == sorted(ops), f"examples {sorted(names)} vs ops {sorted(ops)}"
    for p in schemalib.example_paths("memo.command"):
        assert schemalib.load_json(p)["op"] == p.stem, f"{p.name} must hold op {p.stem}"


def test_memo_command_rules_reject_incomplete_commands():
    _, schema = schemalib.latest_schema("memo.command")
    v = Draft202012Validator(schema)
    assert not v.is_valid({"cmd_id": "c:1", "client": "c", "op": "edit", "memo_id": "m1", "text": "x"})  # no base_version
    assert not v.is_valid({"cmd_id": "c:2", "client": "c", "op": "search"})  # no query
    assert not v.is_valid({"cmd_id": "c:3", "client": "c", "op": "teleport"})
    assert v.is_valid({"cmd_id": "c:4", "client": "c", "op": "empty_trash", "unknown_future_key": 1})


def test_envelope_examples_name_existing_schemas():
    for p in schemalib.example_paths("envelope"):
        env = schemalib.load_json(p)
        target = schemalib.SCHEMAS / env["schema"] / f"v{env['major']}.json"
        assert target.exists(), f"{p.name}: no {target}"
        assert env["minor"] <= schemalib.load_json(target)["x-uibus-minor"]


def test_search_ranges_point_into_the_text():
    for p in schemalib.example_paths("memo.ack"):
        for r in schemalib.load_json(p).get("results", []):
            for start, end in r["ranges"]:
                # Python str indices are Unicode scalar offsets, as the schema specifies.
                assert 0 <= start < end <= len(r["text"]), f"{p.name}: {r}"


def test_scene_examples_are_consistent():
    state_kinds = {sid.split(".", 1)[1] for sid in schemalib.SCHEMA_IDS if sid.startswith("state.")}
    _, schema = schemalib.latest_schema("scene")
    scene_kinds = set(schema["properties"]["views"]["items"]["properties"]["component"]["properties"]["kind"]["enum"])
    assert scene_kinds == state_kinds, "every component kind needs a state.<kind> schema"
    gesture_kinds = schemalib.latest_schema("gesture.event")[1]["properties"]["recognizer"]["enum"]
    recognizer_kinds = schema["properties"]["views"]["items"]["properties"]["recognizers"]["items"]["properties"]["kind"]["enum"]
    assert recognizer_kinds == gesture_kinds
    for p in schemalib.example_paths("scene"):
        scene = schemalib.load_json(p)
        views = [v["id"] for v in scene["views"]]
        assert len(views) == len(set(views)), f"{p.name}: duplicate view ids"
        instances = [v["component"]["id"] for v in scene["views"] if "component" in v]
        assert len(instances) == len(set(instances)), f"{p.name}: duplicate component ids"
        recs = [r["name"] for v in scene["views"] for r in v.get("recognizers", [])]
        assert len(recs) == len(set(recs)), f"{p.name}: duplicate recognizer names"
        for v in scene["views"]:
            assert v.get("parent", views[0]) in views, f"{p.name}: {v['id']} has an unknown parent"
            cfg = v.get("component", {}).get("config", {})
            for ref in cfg.get("overlays", []) + [cfg[k] for k in ("scroll_view",) if k in cfg]:
                assert ref in views, f"{p.name}: {v['id']} refers to unknown view {ref}"
            for r in v.get("recognizers", []):
                for other in r.get("require_to_fail", []) + r.get("simultaneous_with", []):
                    assert other in recs, f"{p.name}: {r['name']} refers to unknown recognizer {other}"
                for t in r.get("targets", []):
                    assert t in instances, f"{p.name}: {r['name']} targets unknown instance {t}"


# ------------------------------------------------------------------------------------------ compatibility

def test_every_schema_is_published():
    published = set(publish.schema_files(str(schemalib.PUBLISHED)))
    current = set(publish.schema_files(str(schemalib.SCHEMAS)))
    assert current <= published, f"run schemas/publish for: {sorted(current - published)}"


def test_repo_schemas_are_compatible_with_published():
    errors, _ = publish.check_tree(str(schemalib.SCHEMAS))
    assert not errors, "\n".join(errors)


def _touch():
    return schemalib.load_json(schemalib.SCHEMAS / "touch.frame" / "v1.json")


def _contact(s):
    return s["properties"]["contacts"]["items"]


def _errors(mutate, base=None, bump=False):
    pub = base or _touch()
    cur = copy.deepcopy(pub)
    mutate(cur)
    if bump:
        cur["x-uibus-minor"] = pub["x-uibus-minor"] + 1
    return publish.compare(pub, cur, "touch.frame/v1.json").errors


def test_unchanged_schema_passes():
    assert _errors(lambda s: None) == []


def test_description_change_passes_without_bump():
    assert _errors(lambda s: s.update(description="reworded")) == []


def test_added_optional_property_passes_with_minor_bump():
    def add(s):
        s["properties"]["source"] = {"type": "string", "description": "evdev or script"}
        _contact(s)["properties"]["orientation"] = {"type": "number", "description": "radians"}
    assert _errors(add, bump=True) == []


def test_added_enum_value_passes_with_minor_bump():
    assert _errors(lambda s: _contact(s)["properties"]["tool"]["enum"].append("eraser"), bump=True) == []


def test_fails_on_removed_property():
    errs = _errors(lambda s: s["properties"].pop("t_ns"), bump=True)
    assert any("'t_ns' removed" in e for e in errs), errs


def test_fails_on_changed_type():
    errs = _errors(lambda s: s["properties"]["frame"].update(type="number"), bump=True)
    assert any("frame" in e and "type changed" in e for e in errs), errs


def test_fails_on_new_required_field():
    def add(s):
        s["properties"]["source"] = {"type": "string", "description": "evdev or script"}
        s["required"].append("source")
    errs = _errors(add, bump=True)
    assert any("new required fields: ['source']" in e for e in errs), errs


def test_fails_on_removed_enum_value():
    errs = _errors(lambda s: _contact(s)["properties"]["phase"]["enum"].remove("stationary"), bump=True)
    assert any("enum values removed: ['stationary']" in e for e in errs), errs


def test_fails_on_nested_changes():
    errs = _errors(lambda s: _contact(s)["properties"]["x"].update(type="integer"), bump=True)
    assert any("/contacts/items/properties/x" in e and "type changed" in e for e in errs), errs
    errs = _errors(lambda s: _contact(s)["properties"].pop("pressure"), bump=True)
    assert any("/contacts/items" in e and "'pressure' removed" in e for e in errs), errs
    errs = _errors(lambda s: _contact(s)["required"].append("tool"), bump=True)
    assert any("/contacts/items" in e and "new required" in e for e in errs), errs


def test_fails_on_missing_minor_bump():
    def add(s):
        s["properties"]["source"] = {"type": "string", "description": "evdev or script"}
    errs = _errors(add, bump=False)
    assert any("minor bump" in e for e in errs), errs
    errs = _errors(lambda s: _contact(s)["properties"]["tool"]["enum"].append("eraser"), bump=False)
    assert any("minor bump" in e for e in errs), errs


def test_fails_on_other_breaking_changes():
    assert any("additionalProperties" in e for e in _errors(lambda s: s.update(additionalProperties=False)))
    assert any("additionalProperties" in e for e in _errors(lambda s: _contact(s).update(additionalProperties=False)))
    assert any("no longer required" in e for e in _errors(lambda s: s["required"].remove("contacts")))
    assert any("tightened" in e for e in _errors(lambda s: s["properties"]["frame"].update(minimum=5)))
    assert any("minor went down" in e for e in _errors(lambda s: s.update({"x-uibus-minor": -1})))
    assert any("$id changed" in e for e in _errors(lambda s: s.update({"$id": "uibus:touch.frame/v2"})))
    assert any("enum added" in e for e in _errors(lambda s: s["properties"]["device"].update(enum=["d0"])))


def test_memo_command_rules_may_grow_only_for_new_ops():
    _, base = schemalib.latest_schema("memo.command")

    def new_op(s):
        s["properties"]["op"]["enum"].append("duplicate")
        s["allOf"].append({"if": {"properties": {"op": {"const": "duplicate"}}, "required": ["op"]},
                           "then": {"required": ["memo_id"]}})
    assert _errors(new_op, base=base, bump=True) == []

    def old_op_stricter(s):
        s["allOf"].append({"if": {"properties": {"op": {"const": "move"}}, "required": ["op"]},
                           "then": {"required": ["base_version"]}})
    assert any("allOf" in e for e in _errors(old_op_stricter, base=base, bump=True))
    assert any("new required" in e for e in _errors(
        lambda s: s["allOf"][1]["then"]["required"].append("color"), base=base, bump=True))


def _tree(tmp_path):
    root = tmp_path / "schemas"
    shutil.copytree(schemalib.SCHEMAS, root)
    return root


def test_check_tree_fails_on_removed_schema_file(tmp_path):
    root = _tree(tmp_path)
    (root / "render.animation" / "v1.json").unlink()
    errors, _ = publish.check_tree(str(root))
    assert any("render.animation/v1.json" in e and "removed" in e for e in errors), errors


def test_publish_script_refreshes_only_compatible_schemas(tmp_path):
    root = _tree(tmp_path)
    path = root / "health" / "v1.json"
    frozen = root / "_published" / "health" / "v1.json"
    script = [sys.executable, str(schemalib.SCHEMAS / "publish"), "--root", str(root)]

    # A compatible change (new optional field + minor bump) is published and reported.
    s = json.loads(path.read_text(encoding="utf-8"))
    s["properties"]["version"] = {"type": "string", "description": "build version"}
    s["x-uibus-minor"] += 1
    path.write_text(json.dumps(s, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    check = subprocess.run(script + ["--check"], capture_output=True, text=True)
    assert check.returncode == 0 and "property 'version' added" in check.stdout, check.stdout
    assert "version" not in json.loads(frozen.read_text(encoding="utf-8"))["properties"]
    run = subprocess.run(script, capture_output=True, text=True)
    assert run.returncode == 0 and "published health/v1.json" in run.stdout, run.stdout
    assert json.loads(frozen.read_text(encoding="utf-8")) == s

    # A breaking change is refused and leaves the frozen copy alone.
    del s["properties"]["pid"]
    s["required"].remove("pid")
    s["x-uibus-minor"] += 1
    path.write_text(json.dumps(s, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    before = frozen.read_bytes()
    run = subprocess.run(script, capture_output=True, text=True)
    assert run.returncode == 1 and "'pid' removed" in run.stdout, run.stdout
    assert frozen.read_bytes() == before


def test_publish_in_process_reports_up_to_date():
    out = io.StringIO()
    assert publish.publish(str(schemalib.SCHEMAS), check_only=True, out=out) == 0
    assert "compatible" in out.getvalue()
