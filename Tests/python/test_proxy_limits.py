"""The proxy under load from outside (issue 20, point 6): half-open handshakes are dropped.

Real bus-proxy processes and real sockets: raw tcp connections to a CURVE proxy that never
handshake.
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
            if extra["connections_refused"] > 0 and extra["connections_subscribers"] <= 1:
                break
            assert time.monotonic() < deadline, extra
        assert extra["connections_publishers"] <= 1, extra
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
