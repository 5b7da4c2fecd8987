"""A bus client for test_two_hosts.py, run inside a network namespace (`ip netns exec`).

    python3 netclient.py BUS_JSON MEMOS PANS_PER_DEVICE DEVICE…

Joins the bus of BUS_JSON (CURVE keys from its `curve` section, as the Swift services read
them), subscribes `gesture/`, `memo/ack/two-hosts/` and `sys/health/`, prints `listening` once
both sharded recognizers and the memo store hear it, creates MEMOS memos, and waits until every
memo is acknowledged and every device has PANS_PER_DEVICE ended pans. Then it prints one JSON
object: the gesture events and acks it saw, and per stream (publisher, epoch, topic) its
sequence numbers, from which the test counts gaps.
"""

import json
import os
import sys
import time

import msgpack
import zmq


def key(path):
    with open(path) as f:
        return f.read().split()[0].encode()


def resolve(bus_path, path):
    with open(bus_path) as f:
        root = json.load(f).get("root", ".")
    return path if path.startswith("/") else os.path.join(os.path.dirname(bus_path), root, path)


def main(bus_path, memos, pans, devices):
    with open(bus_path) as f:
        bus = json.load(f)
    curve = bus["curve"]
    context = zmq.Context()
    sockets = []
    for kind in (zmq.SUB, zmq.XPUB):
        sock = context.socket(kind)
        sock.curve_serverkey = key(resolve(bus_path, curve["server_public_file"]))
        secret = key(resolve(bus_path, curve["client_secret_file"]))
        sock.curve_secretkey = secret
        sock.curve_publickey = zmq.curve_public(secret)
        sockets.append(sock)
    sub, pub = sockets
    for prefix in (b"gesture/", b"memo/ack/two-hosts/", b"sys/health/"):
        sub.setsockopt(zmq.SUBSCRIBE, prefix)
    sub.connect(bus["subscribe"])
    pub.connect(bus["publish"])

    deadline = time.monotonic() + 60
    streams, gestures, acks = {}, [], []
    recognizers, store_heard, memo_cmd_subscribed = set(), False, False

    def receive(timeout_ms):
        nonlocal store_heard, memo_cmd_subscribed
        poller = zmq.Poller()
        poller.register(sub, zmq.POLLIN)
        poller.register(pub, zmq.POLLIN)
        for sock, _ in poller.poll(timeout_ms):
            if sock is pub:
                memo_cmd_subscribed |= pub.recv() == b"\x01memo/cmd/"
                continue
            topic, header, payload = sub.recv_multipart()
            topic, header, payload = topic.decode(), msgpack.unpackb(header), msgpack.unpackb(payload)
            if topic.startswith("sys/health/"):
                if topic == "sys/health/gesture-recognizer/":
                    recognizers.add(payload["pid"])
                store_heard |= topic == "sys/health/memo-store/"
                continue
            streams.setdefault(f'{header["pub"]}|{header["epoch"]}|{topic}', []).append(header["seq"])
            if topic.startswith("gesture/"):
                gestures.append({"device": payload["device"], "recognizer": payload["recognizer"],
                                 "state": payload["state"], "epoch": header["epoch"]})
            else:
                acks.append(payload)

    # Health from both recognizers proves they have our gesture/ subscription (it went first).
    while len(recognizers) < 2 or not store_heard or not memo_cmd_subscribed:
        if time.monotonic() > deadline:
            raise SystemExit(f"never heard the services: recognizers {recognizers}, store {store_heard}")
        receive(100)
    print("listening", flush=True)

    epoch = int.from_bytes(os.urandom(6), "big")
    for index in range(memos):
        command = {"cmd_id": f"two-hosts:{index}", "client": "two-hosts", "op": "create",
                   "text": f"二台目から {index}", "x": 10 + index, "y": 20, "width": 160, "height": 120}
        header = {"v": 1, "schema": "memo.command", "major": 1, "minor": 0, "pub": "two-hosts", "epoch": epoch,
                  "seq": index + 1, "mono": time.monotonic_ns(), "wall": time.time_ns()}
        pub.send_multipart([b"memo/cmd/", msgpack.packb(header), msgpack.packb(command)])

    def done():
        ended = [sum(1 for g in gestures if g["device"] == d and g["recognizer"] == "pan" and g["state"] == "ended")
                 for d in devices]
        return len(acks) >= memos and all(count >= pans for count in ended)

    while not done():
        if time.monotonic() > deadline:
            break
        receive(100)
    print(json.dumps({"gestures": gestures, "acks": acks, "streams": streams}), flush=True)
    for sock in sockets:
        sock.close(linger=1000)
    context.term()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
