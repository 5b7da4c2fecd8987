"""Offline replay and the live stack give the same component states for the same touch script.

Offline: `gesture-recognizer replay --touches SCRIPT` piped into `component-host replay`. Live: a
bus-proxy, `component-host`, `gesture-recognizer` and `input-source run --script SCRIPT`, real
processes over a real bus, the states read by `bus-tap echo`. The script flings a scroll view (60 Hz
deceleration frames, timers of the host), opens a table row (a slide that ends on a timer), taps
the number pad twice within its 0.75 s sequence window (measured between the taps' source times)
and draws a stroke, with gaps between them longer than any timer in flight, so no timer of the
host falls due while a gesture is on its way.

Compared: every state, `t_ms` included, in order. Left out, with the reason:
- `input` (the touch frame a state shows): the live recognizer names the frame that caused each
  gesture when it publishes it; `gesture-recognizer replay` prints the events without it.
- the copies of the initial states the live host publishes again when another service says
  `ready` (a late joiner's resync): no service joins a replay. They must equal the initial states
  but for `t_ms`, the host's clock at that moment (before any gesture, its start is source
  instant zero).
"""

import json
import os
import subprocess
import threading
import time

import busproc

SCENE = {
    "name": "offline-live", "width": 1000, "height": 1000,
    "views": [
        {"id": "list", "frame": {"x": 0, "y": 0, "width": 400, "height": 600},
         "component": {"kind": "scrollView", "id": "list1", "config": {"content_width": 400, "content_height": 6000}},
         "recognizers": [{"name": "listPan", "kind": "pan"}]},
        {"id": "table", "frame": {"x": 400, "y": 0, "width": 600, "height": 600},
         "component": {"kind": "slideTable", "id": "table1", "config": {"rows": 20, "row_height": 60}},
         "recognizers": [{"name": "cellSwipe", "kind": "swipe", "settings": {"directions": ["right", "left"]}}]},
        {"id": "sketch", "frame": {"x": 0, "y": 600, "width": 1000, "height": 250},
         "component": {"kind": "canvas", "id": "canvas1", "config": {"stroke_width": 4, "stroke_color": "#1e3a8a"}},
         "recognizers": [{"name": "ink", "kind": "touchDown"}]},
        {"id": "keypad", "frame": {"x": 0, "y": 900, "width": 1000, "height": 100},
         "component": {"kind": "numberPad", "id": "pad1", "config": {"layout": "phone", "sequence_window_ms": 750}},
         "recognizers": [{"name": "padDown", "kind": "touchDown"}]},
    ],
}


def stroke(t, points, step_ms=10):
    """One finger along `points`, a frame every `step_ms`."""
    lines = []
    for index, (x, y) in enumerate(points):
        phase = "began" if index == 0 else "ended" if index == len(points) - 1 else "moved"
        lines.append({"t_ms": t + index * step_ms, "device": "d0", "id": 0, "phase": phase, "x": x, "y": y})
    return lines


def script():
    lines = stroke(0, [(200, 550 - 40 * i) for i in range(12)])  # a fling up: seconds of deceleration
    lines += stroke(6000, [(450 + 45 * i, 90) for i in range(8)])  # a right swipe on row 1
    lines += stroke(7000, [(150, 950), (150, 950)], step_ms=80)  # a key
    lines += stroke(7300, [(450, 950), (450, 950)], step_ms=80)  # another, in the window
    lines += stroke(9000, [(100 + 30 * i, 700 + 10 * i) for i in range(10)])  # ink
    return lines


def offline_states(scene, touches):
    gestures = subprocess.run([busproc.tool("gesture-recognizer"), "replay", "--touches", touches, "--scene", scene],
                              capture_output=True, text=True, timeout=120, check=True).stdout
    path = touches + ".gestures"
    with open(path, "w") as f:
        f.write(gestures)
    states = subprocess.run([busproc.tool("component-host"), "replay", "--scene", scene, "--gestures", path],
                            capture_output=True, text=True, timeout=120, check=True).stdout
    return [json.loads(line) for line in states.splitlines()]


class Lines:
    """The JSON lines a child prints, read as they come."""

    def __init__(self, proc):
        self.proc, self.lines, self.lock = proc, [], threading.Lock()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.proc.stdout:
            with self.lock:
                self.lines.append(json.loads(line))

    def snapshot(self):
        with self.lock:
            return list(self.lines)

    def wait_for(self, what, accept, timeout_s):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if accept(self.snapshot()):
                return
            time.sleep(0.05)
        raise AssertionError(f"no {what} within {timeout_s} s; got {len(self.snapshot())} lines")


def start(command, directory, name):
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(os.path.join(directory, name + ".err"), "w"),
                            text=True, cwd=busproc.REPO)


def without(state, *fields):
    return {key: value for key, value in state.items() if key not in fields}


def test_the_live_stack_publishes_the_states_of_an_offline_replay_of_the_same_touch_script(tmp_path):
    scene, touches = str(tmp_path / "scene.json"), str(tmp_path / "touches.jsonl")
    with open(scene, "w") as f:
        json.dump(SCENE, f)
    with open(touches, "w") as f:
        f.writelines(json.dumps(line) + "\n" for line in script())
    offline = offline_states(scene, touches)
    components = len(SCENE["views"])
    initial, caused = offline[:components], offline[components:]
    assert len(caused) > 100, "the script must make the host work (deceleration frames, slides, keys, ink)"
    assert {state["instance"] for state in caused} == {"list1", "table1", "pad1", "canvas1"}

    with busproc.Proxy() as proxy:
        procs = []
        try:
            tap = start([busproc.tool("bus-tap"), "--bus", proxy.bus, "echo", "ui/", "--json"], str(tmp_path), "tap")
            procs.append(tap)
            live = Lines(tap)
            host = start([busproc.tool("component-host"), "--bus", proxy.bus, "--scene", scene], str(tmp_path), "host")
            procs.append(host)
            assert host.stdout.readline().strip() == "ready"
            # Every component's state, live or from the proxy's cache: the tap is subscribed.
            live.wait_for("initial states", lambda lines: len({line["topic"] for line in lines}) >= components, 30)
            recognizer = start([busproc.tool("gesture-recognizer"), "--bus", proxy.bus, "--scene", scene],
                               str(tmp_path), "recognizer")
            procs.append(recognizer)
            assert recognizer.stdout.readline().strip() == "ready"
            source = subprocess.run([busproc.tool("input-source"), "--bus", proxy.bus, "run", "--script", touches,
                                     "--scene", scene, "--subscriber-wait-ms", "30000"],
                                    capture_output=True, text=True, timeout=120, cwd=busproc.REPO)
            assert source.returncode == 0, source.stderr

            def states(lines):
                return [line["payload"] for line in lines if line["schema"].startswith("state.")]

            def from_first_input(payloads):
                first = next((i for i, state in enumerate(payloads) if "input" in state), len(payloads))
                return payloads[:first], payloads[first:]

            live.wait_for("the states the script caused",
                          lambda lines: len(from_first_input(states(lines))[1]) >= len(caused), 60)
            busproc.stop(host)
        finally:
            for proc in reversed(procs):
                busproc.stop(proc)
        before, after = from_first_input(states(live.snapshot()))

    by_instance = {state["instance"]: without(state, "t_ms") for state in initial}
    assert before, "the tap saw no state before the first gesture"
    for state in before:
        assert without(state, "t_ms") == by_instance[state["instance"]], "a resync that is not the initial state"
    assert [without(state, "input") for state in after] == caused
