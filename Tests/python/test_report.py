"""The demo report end to end: a real bus session recorded by `bus-tap record`, turned into
report.html by `uibus-report`, opened in headless Chromium (screenshot taken, no page errors).

Chromium comes from the Debian package `chromium` (deploy/uibus test installs it); without it
the Chromium checks skip with the reason, and the report itself is still checked.
"""

import json
import re
import shutil
import struct
import subprocess
import zlib

import pytest

import busproc
import schemalib

# Schemas published, in an order that tells a small story; every example of each is sent once.
STORY = ["state.drawer", "gesture.event", "state.pullToRefresh", "state.slideTable", "state.numberPad",
         "state.canvas", "state.zoomView", "state.pager", "memo.ack", "memo.changed", "state.memoBoard",
         "render.frame", "health"]
SECTIONS = ["summary", "frames", "gallery", "timeline", "health", "latency", "memos"]


def topic_for(schema_id, example):
    """The topic a service would publish `example` on (x-uibus-topic with its fields filled in)."""
    if schema_id == "gesture.event":
        return f"gesture/{example['device']}/{example['view']}/{example.get('name', example['recognizer'])}/"
    if schema_id.startswith("state."):
        return f"ui/{schema_id[len('state.'):]}/{example['instance']}/"
    if schema_id == "memo.ack":
        return f"memo/ack/{example['cmd_id'].split(':')[0]}/"
    if schema_id == "memo.changed":
        return "memo/changed/"
    if schema_id == "render.frame":
        return "render/frame/"
    return f"sys/health/{example['service']}/"


def messages():
    out = []
    for schema_id in STORY:
        for path in schemalib.example_paths(schema_id):
            example = schemalib.load_json(path)
            # The proxy publishes its own health on sys/health/bus-proxy/: leave that topic to it.
            if schema_id == "health" and example["service"] == "bus-proxy":
                continue
            out.append((topic_for(schema_id, example), schema_id, example))
    return out


def png(width, height):
    """A small gradient PNG (standard library only), like a render-worker snapshot."""
    rows = b"".join(
        b"\x00" + bytes(v for x in range(width) for v in (40 + x * 200 // width, 90 + y * 120 // height, 180))
        for y in range(height)
    )

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """Records a bus session of schema examples and writes report.html from it."""
    out = tmp_path_factory.mktemp("report")
    sent = messages()
    prefixes = sorted({topic for topic, _, _ in sent})
    with busproc.Proxy() as proxy:
        record = subprocess.Popen(
            [busproc.tool("bus-tap"), "--bus", proxy.bus, "record", str(out / "bus.mcap"), *prefixes,
             "--count", str(len(sent))],
            stderr=subprocess.PIPE, text=True,
        )
        for topic, schema_id, example in sent:
            # pub waits for a subscriber to its topic: the recorder is the only one.
            proxy.tap("pub", topic, "--schema", schema_id, json.dumps(example, ensure_ascii=False))
        _, err = busproc.finish(record, 30)
        assert record.returncode == 0, err
    frames = out / "frames"
    frames.mkdir()
    for name in ("frame-000001.png", "frame-000240.png"):
        (frames / name).write_bytes(png(320, 200))
    (out / "supervisor.json").write_text(json.dumps({"state": "stopped", "services": [
        {"name": "gesture-recognizer", "state": "stopped", "restarts": 1, "last_exit": "signal 9"},
        {"name": "memo-store", "state": "stopped", "restarts": 0, "last_exit": "exit 0"}]}))
    result = subprocess.run(
        [busproc.tool("uibus-report"), "--recording", str(out / "bus.mcap"), "--frames", str(frames),
         "--status", str(out / "supervisor.json"), "--out", str(out / "report.html"),
         "--summary-json", str(out / "summary.json")],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return out, sent, result.stdout


def test_report_totals_match_what_was_published(report):
    out, sent, stdout = report
    summary = json.loads((out / "summary.json").read_text())
    assert summary["messages"] == len(sent)
    recognized = [e for _, s, e in sent if s == "gesture.event" and e["state"] in ("recognized", "began")]
    assert summary["gestures_total"] == len(recognized)
    assert summary["frames_rendered"] == sum(1 for _, s, _ in sent if s == "render.frame")
    assert summary["memo_changes"] == {"delete": 1, "settings": 1, "upsert": 2}
    assert summary["messages_lost"] == sum(e["counters"]["gaps"] for _, s, e in sent if s == "health")
    assert "gestures recognized" in stdout and "report: " in stdout


def test_missing_recording_is_a_clear_error(tmp_path):
    missing = tmp_path / "nothing.mcap"
    result = subprocess.run(
        [busproc.tool("uibus-report"), "--recording", str(missing), "--out", str(tmp_path / "r.html")],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 1 and str(missing) in result.stderr
    assert not (tmp_path / "r.html").exists()


def chromium():
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Chromium is not installed (Debian package `chromium`; deploy/uibus test installs it)")
    return path


def run_chromium(*args):
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", *args],
        capture_output=True, text=True, timeout=120,
    )


def test_report_renders_in_headless_chromium_without_errors(report):
    out, _, _ = report
    page = (out / "report.html").as_uri()
    shot = out / "report.png"
    result = run_chromium(f"--screenshot={shot}", "--window-size=1280,2000", page)
    assert result.returncode == 0, result.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 50_000, "the screenshot is nearly blank"
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    assert not [line for line in console if re.search(r"Uncaught|Error|Failed", line)], console


def test_report_dom_has_every_section_and_the_frames(report):
    out, _, _ = report
    result = run_chromium("--dump-dom", (out / "report.html").as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    dom = result.stdout
    for section in SECTIONS:
        assert f'id="{section}"' in dom, section
    assert dom.count("<svg") == 2
    assert dom.count('src="data:image/png;base64,') == 2
    assert "古いメモ" in dom  # memo.changed examples: Japanese text survives to the page
