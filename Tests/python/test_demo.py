"""The demo end to end, twice in a row, as `deploy/uibus demo` runs it (here on the debug build).

Every service under the supervisor, the demo touch script, memo commands in Japanese, the
recording and the report: each run must start from a clean var/demo/, drive every component of
the demo scene, store the memos, lose no message and leave no process behind.
"""

import json
import os
import re
import signal
import subprocess

import busproc

COMPONENTS = {"canvas/canvas1", "drawer/drawer1", "memoBoard/board1", "numberPad/pad1", "pager/pager1",
              "pullToRefresh/refresh1", "slideTable/table1", "zoomView/zoom1"}
SERVICES = ("bus-proxy", "memo-store", "component-host", "render-worker", "gesture-recognizer", "uibus-supervisor")


def running_services():
    """Processes of this build's service executables (a `deploy/uibus up` from another build is not ours)."""
    out = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    programs = {str(busproc.BIN / name) for name in SERVICES}
    return [line for line in out.splitlines() if line.split(" ")[0] in programs]


def run_demo(timeout=240):
    """deploy/demo in a session of its own: on a timeout the whole group is stopped (SIGTERM, so the
    supervisor stops its services, then SIGKILL), so a hung run leaves no process behind."""
    demo = subprocess.Popen(["deploy/demo", str(busproc.BIN)], cwd=busproc.REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = demo.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(demo.pid, signal.SIGTERM)
        try:
            stdout, stderr = demo.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(demo.pid, signal.SIGKILL)
            stdout, stderr = demo.communicate()
        raise AssertionError(f"deploy/demo did not finish within {timeout} s:\n{stdout}\n{stderr}")
    return subprocess.CompletedProcess(demo.args, demo.returncode, stdout, stderr)


def test_demo_runs_twice_from_a_clean_state_and_drives_every_component():
    for run in (1, 2):
        result = run_demo()
        assert result.returncode == 0, f"run {run}:\n{result.stdout}\n{result.stderr}"
        summary = json.loads((busproc.REPO / "var/demo/summary.json").read_text())
        assert summary["messages_lost"] == 0, summary
        assert summary["memos_stored"] == 3, summary
        # A board resends a command whose ack is late; the store answers the resend `duplicate`
        # (applied once). Anything else (conflict, rejected) means a command went wrong.
        assert summary["memo_acks"].get("ok", 0) >= 9 and set(summary["memo_acks"]) <= {"ok", "duplicate"}, summary
        assert COMPONENTS <= set(summary["transitions"]), summary["transitions"]
        assert summary["gestures"].get("swipe", 0) >= 4 and summary["gestures"].get("pinch", 0) >= 2, summary
        assert summary["frames_rendered"] > 0
        assert (busproc.REPO / "var/demo/report.html").stat().st_size > 10_000
        # The gallery shows each idiom's moments from snapshots this run wrote, and only those.
        report = (busproc.REPO / "var/demo/report.html").read_text()
        assert '<section id="gallery">' in report
        shown = re.findall(r'data-frame="([^"]+)"', report)
        assert all((busproc.REPO / "var/demo/frames" / name).is_file() for name in shown), shown
        assert "every command acknowledged" in result.stdout
        assert running_services() == [], running_services()
