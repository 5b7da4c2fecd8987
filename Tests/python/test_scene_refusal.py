"""An invalid scene is refused the same way by every service and offline tool that reads one.

Each executable gets a copy of deploy/scenes/demo.json broken in one way (a property nobody
declared, a value of the wrong type, a relationship naming a recognizer that does not exist) and
must exit 65 (EX_DATAERR) with one message naming the file, the JSON path and the rule, before a
live service prints `ready`.
"""

import copy
import subprocess
import json

import pytest

import busproc

DEMO = json.loads((busproc.REPO / "deploy" / "scenes" / "demo.json").read_text())
TOUCHES = str(busproc.REPO / "Tests" / "data" / "scripts" / "double-tap.jsonl")


def _unknown_property(scene):
    scene["views"][2]["row_hieght"] = 64
    return "$.views[2].row_hieght", "additionalProperties"


def _wrong_type(scene):
    scene["views"][2]["frame"]["width"] = "400"
    return "$.views[2].frame.width", "type"


def _dangling_relationship(scene):
    scene["views"][0]["recognizers"][1]["require_to_fail"] = ["drawerSwipee"]
    return "$.views[0].recognizers[1].require_to_fail[0]", "reference"


BREAKAGES = {"unknown-property": _unknown_property, "wrong-type": _wrong_type,
             "dangling-relationship": _dangling_relationship}

# (name, arguments after the tool): {scene}, {bus}, {tmp} are filled in.
INVOCATIONS = [
    ("gesture-recognizer", ["--bus", "{bus}", "--scene", "{scene}"]),
    ("gesture-recognizer", ["replay", "--touches", TOUCHES, "--scene", "{scene}"]),
    ("component-host", ["--bus", "{bus}", "--scene", "{scene}"]),
    ("component-host", ["replay", "--scene", "{scene}", "--gestures", "{tmp}/gestures.jsonl"]),
    ("render-worker", ["--bus", "{bus}", "--scene", "{scene}", "--snapshot-dir", "{tmp}"]),
    ("render-worker", ["render", "--scene", "{scene}", "{tmp}/out.png"]),
    ("render-worker", ["demo", "{tmp}/out.png", "--scene", "{scene}", "--runs", "1"]),
    ("input-source", ["--bus", "{bus}", "run", TOUCHES, "--scene", "{scene}"]),
    ("uibus-view", ["--bus", "{bus}", "--scene", "{scene}", "--listen", "127.0.0.1:0"]),
]


@pytest.fixture(scope="module")
def proxy():
    with busproc.Proxy() as running:
        yield running


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
@pytest.mark.parametrize("tool,arguments", INVOCATIONS, ids=[f"{t}-{a[0]}" for t, a in INVOCATIONS])
def test_an_invalid_scene_is_refused_with_file_path_and_rule(proxy, tmp_path, breakage, tool, arguments):
    scene = copy.deepcopy(DEMO)
    path, rule = BREAKAGES[breakage](scene)
    scene_file = tmp_path / "broken-scene.json"
    scene_file.write_text(json.dumps(scene, ensure_ascii=False))
    (tmp_path / "gestures.jsonl").write_text("")
    filled = [a.format(scene=scene_file, bus=proxy.bus, tmp=tmp_path) for a in arguments]
    # A service that took the scene would run until stopped: the timeout fails the test instead.
    result = subprocess.run([busproc.tool(tool), *filled], capture_output=True, text=True, timeout=60,
                            cwd=busproc.REPO)
    assert result.returncode == 65, f"{tool} {filled}: exit {result.returncode}\n{result.stderr}"
    assert "ready" not in result.stdout
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"one message, not {lines}"
    assert str(scene_file) in lines[0] and f"{path}:" in lines[0] and f"(rule: {rule})" in lines[0], lines[0]
