"""A subscriber process whose owner stops reading keeps what it holds unread within its byte budget
(Sources/Bus/ReceiveBudget.swift), counts what it drops, and reports the count in its health."""

import os
import subprocess
import tempfile
import time

import msgpack
import zmq

import busproc

MB = 1 << 20


def drops(health, timeout_s=10.0):
    """receive_over_budget in the stalled subscriber's next health report."""
    frames = busproc.receive_on(health, "sys/health/stall/", timeout_s)
    return msgpack.unpackb(frames[2], raw=False)["reasons"].get("receive_over_budget", 0)


def test_a_subscriber_that_stops_reading_1mb_messages_stays_within_its_byte_budget_and_counts_its_drops():
    budget = 16 * MB
    sent = 600
    with tempfile.TemporaryDirectory(prefix="uibus-stall-") as scratch:
        context = zmq.Context()
        health = context.socket(zmq.SUB)
        health.setsockopt(zmq.SUBSCRIBE, b"sys/health/stall/")
        health.bind(f"ipc://{scratch}/health")
        stall = subprocess.Popen(
            [busproc.tool("bus-bench"), "stall", "--endpoint", f"ipc://{scratch}/sub", "--health",
             f"ipc://{scratch}/health", "--budget", str(budget)],
            stdout=subprocess.PIPE, text=True)
        try:
            pub = context.socket(zmq.PUB)
            pub.setsockopt(zmq.SNDHWM, 0)
            pub.connect(f"ipc://{scratch}/sub")
            busproc.probe_until_heard(pub, stall, timeout_s=20)

            payload = os.urandom(MB)
            baseline = busproc.rss_bytes(stall.pid)
            peak = baseline
            for _ in range(sent):
                pub.send_multipart([b"big/x/", b"h", payload], copy=False)
                peak = max(peak, busproc.rss_bytes(stall.pid))
            # Everything sent has reached the subscriber once all but what it holds is counted dropped.
            deadline = time.monotonic() + 60
            counted = drops(health)
            while counted < sent - budget // MB and time.monotonic() < deadline:
                peak = max(peak, busproc.rss_bytes(stall.pid))
                counted = drops(health)
            peak = max(peak, busproc.rss_bytes(stall.pid))

            assert counted >= sent - budget // MB, f"{counted} drops counted of {sent} sent"
            assert counted <= sent
            # Without the budget, libzmq's queue (10 000 messages) held all 600 MB here. With it the
            # process holds the budget, half of it again before the warden acts, and what libzmq's
            # I/O thread reads while the warden waits for a core: a few MB a millisecond, and on a
            # loaded 2-core machine tens of milliseconds (33-50 MB measured idle, 120 MB under two
            # busy loops and a parallel build).
            assert peak - baseline < sent * MB // 4, f"the subscriber grew by {(peak - baseline) // MB} MB"
            assert stall.poll() is None, "the subscriber is still running"
        finally:
            stall.kill()
            stall.wait()
            stall.stdout.close()
            context.destroy(linger=0)
