"""The proxy under load from outside (issue 20, points 5 and 6): its memory and descriptors stay bounded.

Real bus-proxy processes and real sockets: a subscriber that stops reading 1 MB messages, and raw
tcp connections to a CURVE proxy that never handshake.
"""

import json
import os
import resource
import shutil
import socket
import subprocess
import tempfile
import time

import msgpack
import zmq

import busproc

MB = 1 << 20

# A subscriber in a process of its own: it reads one message (so its subscription is known to have
# arrived), says so, and never reads again, with the smallest queues of its own.
SLOW_SUBSCRIBER = """
import sys, time, zmq
sub = zmq.Context().socket(zmq.SUB)
sub.setsockopt(zmq.RCVHWM, 1)
sub.setsockopt(zmq.RCVBUF, 65536)
sub.setsockopt(zmq.SUBSCRIBE, b"big/")
sub.connect(sys.argv[1])
sub.recv_multipart()
print("heard", flush=True)
time.sleep(600)
"""


def proxy_health(sub, timeout_s=10.0):
    """The extra numbers of the next proxy health report on `sub` (subscribed to sys/health/bus-proxy/)."""
    frames = busproc.receive_on(sub, "sys/health/bus-proxy/", timeout_s)
    return msgpack.unpackb(frames[2], raw=False)["extra"]


def wait_for_flow(pub, sub, topic, payload=b"probe", timeout_s=10.0):
    """Publishes on `topic` until `sub` hears it: the subscription has reached the publisher."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        pub.send_multipart([topic, b"h", payload])
        if sub.poll(20):
            sub.recv_multipart()
            return
    raise TimeoutError(f"nothing arrived on {topic!r}")


def test_a_subscriber_that_stops_reading_1mb_messages_is_cut_off_and_the_proxy_stays_within_its_byte_budget():
    with busproc.Proxy() as proxy:
        context = zmq.Context()
        slow = subprocess.Popen(
            ["python3", "-c", SLOW_SUBSCRIBER, proxy.subscribe], stdout=subprocess.PIPE, text=True
        )
        try:
            health = context.socket(zmq.SUB)
            health.setsockopt(zmq.SUBSCRIBE, b"sys/health/bus-proxy/")
            health.connect(proxy.subscribe)
            budget = proxy_health(health)["queue_budget_bytes"]
            pub = context.socket(zmq.PUB)
            pub.setsockopt(zmq.SNDHWM, 100_000)
            pub.connect(proxy.publish)
            busproc.probe_until_heard(pub, slow, timeout_s=10)

            payload = os.urandom(MB)
            baseline = busproc.rss_bytes(proxy.proc.pid)
            peak = baseline
            sent = 1500
            for _ in range(sent):
                pub.send_multipart([b"big/x/", b"h", payload], copy=False)
                peak = max(peak, busproc.rss_bytes(proxy.proc.pid))
            deadline = time.monotonic() + 30
            extra = proxy_health(health)
            while extra["bytes_forwarded"] < sent * MB and time.monotonic() < deadline:
                peak = max(peak, busproc.rss_bytes(proxy.proc.pid))
                extra = proxy_health(health)
            peak = max(peak, busproc.rss_bytes(proxy.proc.pid))

            assert extra["bytes_forwarded"] >= sent * MB, extra
            # Without the budget the slow subscriber's queue alone was 1.5 GB here.
            assert peak - baseline < budget + budget // 2, f"proxy grew by {(peak - baseline) // MB} MB"
            assert extra["slow_subscriber_cuts"] > 0, extra
            # The cut is put down to the subscriber that fell behind, by its pid.
            assert extra.get(f"slow_subscriber_cuts_pid_{slow.pid}", 0) > 0, extra
            # The proxy serves on: a message published now still reaches a subscriber that reads.
            pub.send_multipart([b"sys/health/bus-proxy/after/", b"h", b"still here"])
            assert busproc.receive_on(health, "sys/health/bus-proxy/after/")[2] == b"still here"
        finally:
            slow.kill()
            slow.wait()
            slow.stdout.close()
            context.destroy(linger=0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_with_curve_raw_connections_that_never_handshake_are_dropped_and_members_keep_hearing():
    directory = tempfile.mkdtemp(prefix="uibus-py-curve-")
    proxy = None
    context = zmq.Context()
    raw = []
    try:
        keys = os.path.join(directory, "keys")
        subprocess.run([busproc.tool("bus-proxy"), "keys", "--dir", keys, "member"], check=True, capture_output=True)
        publish, subscribe = free_port(), free_port()
        bus = os.path.join(directory, "bus.json")
        with open(bus, "w") as f:
            json.dump(
                {
                    "publish": f"tcp://127.0.0.1:{publish}",
                    "subscribe": f"tcp://127.0.0.1:{subscribe}",
                    "curve": {
                        "server_public_file": "keys/server.public",
                        "server_secret_file": "keys/server.secret",
                        "client_secret_file": "keys/member.secret",
                        "allow_file": "keys/allowed_clients",
                    },
                },
                f,
            )

        def few_descriptors():
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

        proxy = subprocess.Popen(
            [busproc.tool("bus-proxy"), "--bus", bus],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=few_descriptors,
        )
        assert proxy.stdout.readline().strip() == "ready", proxy.stderr.read()

        def key(name):
            with open(os.path.join(keys, name)) as f:
                return f.read().split()[0].encode()

        def member(kind):
            s = context.socket(kind)
            s.curve_serverkey = key("server.public")
            s.curve_secretkey = key("member.secret")
            s.curve_publickey = zmq.curve_public(key("member.secret"))
            return s

        sub = member(zmq.SUB)
        sub.setsockopt(zmq.SUBSCRIBE, b"t/")
        sub.setsockopt(zmq.SUBSCRIBE, b"sys/health/bus-proxy/")
        sub.connect(f"tcp://127.0.0.1:{subscribe}")
        pub = member(zmq.PUB)
        pub.connect(f"tcp://127.0.0.1:{publish}")
        wait_for_flow(pub, sub, b"t/x/")

        # Raw connections that never speak: more than the proxy has descriptors.
        for port in (subscribe, publish):
            for _ in range(400):
                s = socket.socket()
                s.setblocking(False)
                try:
                    s.connect(("127.0.0.1", port))
                except BlockingIOError:
                    pass
                raw.append(s)

        # The handshake deadline drops them (the raw sockets stay open on this side), the cap
        # refused the rest, and the member still hears what is published.
        deadline = time.monotonic() + 30
        while True:
            assert proxy.poll() is None, proxy.stderr.read()
            extra = proxy_health(sub)
            settled = extra["connections_subscribers"] <= 1 and extra["connections_publishers"] <= 1
            if extra["connections_refused"] > 0 and settled:
                break
            assert time.monotonic() < deadline, extra
        pub.send_multipart([b"t/after/", b"h", b"still here"])
        assert busproc.receive_on(sub, "t/after/")[2] == b"still here"
    finally:
        for s in raw:
            s.close()
        context.destroy(linger=0)
        if proxy is not None:
            proxy.terminate()
            busproc.finish(proxy)
        shutil.rmtree(directory, ignore_errors=True)
