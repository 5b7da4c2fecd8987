"""bus-flood redraws one progress line in place while its stderr is a terminal, and ends it.

(With stderr on a pipe it writes nothing there: `BusFloodTests` checks that side.)
"""

import os
import pty
import select
import subprocess
import time

import busproc

SCENE = str(busproc.REPO / "deploy" / "scenes" / "demo.json")


def start(proxy, name):
    proc = subprocess.Popen(
        [busproc.tool(name), "--bus", proxy.bus, "--scene", SCENE],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=busproc.REPO)
    line = proc.stdout.readline().strip()
    if line != "ready":
        proc.kill()
        raise AssertionError(f"{name} did not start: {line!r}")
    return proc


def read_terminal(master, timeout_s):
    """Everything written to the terminal until its last writer closes it (EIO on the master)."""
    chunks, deadline = [], time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if not ready:
            continue
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks).decode()


def test_a_flood_on_a_terminal_redraws_its_progress_line_in_place_and_ends_it():
    with busproc.Proxy() as proxy:
        services = [start(proxy, "gesture-recognizer"), start(proxy, "component-host")]
        try:
            master, slave = pty.openpty()
            flood = subprocess.Popen(
                [busproc.tool("bus-flood"), "--bus", proxy.bus, "touch", "--rate", "500", "--duration", "2"],
                stdout=subprocess.PIPE, stderr=slave, text=True, cwd=busproc.REPO)
            os.close(slave)
            shown = read_terminal(master, timeout_s=60)
            out, _ = busproc.finish(flood)
            os.close(master)
        finally:
            for service in services:
                service.terminate()
                busproc.finish(service)
    # What is tested is the display. Whether this shared machine kept to the rate is not: a flood
    # that could not keep up says so and exits 1, and only that reason is let through here.
    if flood.returncode != 0:
        reason = shown.rsplit("not clean: ", 1)[-1]
        assert reason.startswith("the sender kept up only") and "lost" not in reason and "unaccounted" not in reason, shown
    draws = shown.split("\r\x1b[K")[1:]
    assert len(draws) >= 2, repr(shown)
    assert all(draw.startswith("touch: sent ") and "/1000  gestures " in draw for draw in draws), repr(shown)
    assert shown.endswith("\n"), "the line is ended before the summary: " + repr(shown[-80:])
    assert out.startswith("touch: 1000 sent"), out
