"""An outside client in Python (pyzmq, msgpack, jsonschema only) joins the bus through its endpoints.

It receives what `bus-tap pub` sends for every example of every schema and validates the
header and payload frames against schemas/, as any client in any language could.
"""

import json

import jsonschema
import msgpack
import pytest
import zmq

import busproc
import schemalib

EXAMPLES = [
    (sid, path) for sid, major, _ in schemalib.schema_paths() if major == 1 for path in schemalib.example_paths(sid)
]


@pytest.fixture(scope="module")
def bus():
    with busproc.Proxy() as proxy:
        context = zmq.Context()
        sub = context.socket(zmq.SUB)
        sub.setsockopt(zmq.SUBSCRIBE, b"test/")
        sub.connect(proxy.subscribe)
        yield proxy, sub
        sub.close(linger=0)
        context.term()


def validator(schema_id):
    _, schema = schemalib.latest_schema(schema_id)
    return jsonschema.Draft202012Validator(schema)


ENVELOPE = validator("envelope")


@pytest.mark.parametrize("schema_id,path", EXAMPLES, ids=[f"{s}/{p.name}" for s, p in EXAMPLES])
def test_python_client_receives_and_validates_every_example(bus, schema_id, path):
    proxy, sub = bus
    example = schemalib.load_json(path)
    topic = f"test/{schema_id}/{path.stem}/"
    proxy.tap("pub", topic, "--schema", schema_id, json.dumps(example, ensure_ascii=False))
    topic_frame, header_frame, payload_frame = busproc.receive_on(sub, topic)
    header = msgpack.unpackb(header_frame, raw=False)
    payload = msgpack.unpackb(payload_frame, raw=False)
    ENVELOPE.validate(header)
    validator(schema_id).validate(payload)
    assert header["schema"] == schema_id and header["major"] == 1 and header["pub"] == "bus-tap"
    assert header["seq"] == 1 and 0 < header["epoch"] < 2**53
    assert payload == example


def test_python_publisher_is_heard_by_bus_tap(bus):
    """The other direction: a Python PUB with a hand-built envelope shows up in bus-tap echo."""
    proxy, _ = bus
    import subprocess

    echo = subprocess.Popen(
        [busproc.tool("bus-tap"), "--bus", proxy.bus, "echo", "py/", "--count", "1", "--json"],
        stdout=subprocess.PIPE,
        text=True,
    )
    context = zmq.Context()
    pub = context.socket(zmq.XPUB)
    pub.connect(proxy.publish)
    # Publishers filter by subscription, so wait until bus-tap's own "py/" has reached us.
    seen = set()
    while b"\x01py/" not in seen:
        assert pub.poll(10_000), f"bus-tap echo never subscribed (saw {seen})"
        seen.add(pub.recv())
    payload = {"service": "py", "event": "ready", "epoch": 7, "pid": 1}
    header = {"v": 1, "schema": "lifecycle", "major": 1, "minor": 0, "pub": "py", "epoch": 7, "seq": 1,
              "mono": 1, "wall": 2}
    pub.send_multipart([b"py/x/", msgpack.packb(header), msgpack.packb(payload)])
    out, _ = busproc.finish(echo)
    pub.close(linger=1000)
    context.term()
    line = json.loads(out.strip())
    assert line["pub"] == "py" and line["payload"] == payload and line["topic"] == "py/x/"


def test_recordings_open_in_the_standard_mcap_reader(bus, tmp_path):
    from mcap.reader import make_reader
    import subprocess

    proxy, _ = bus
    out = tmp_path / "session.mcap"
    record = subprocess.Popen(
        # A prefix nobody else subscribes to, so `pub` waits for the recorder's own subscription.
        [busproc.tool("bus-tap"), "--bus", proxy.bus, "record", str(out), "rec/", "--count", "2"],
        stderr=subprocess.PIPE,
        text=True,
    )
    example = schemalib.load_json(schemalib.example_paths("gesture.event")[0])
    for _ in range(2):
        proxy.tap("pub", "rec/g/", "--schema", "gesture.event", json.dumps(example))
    busproc.finish(record)
    assert record.returncode == 0
    with open(out, "rb") as f:
        messages = list(make_reader(f).iter_messages())
    assert len(messages) == 2
    schema, channel, message = messages[0]
    assert schema.name == "gesture.event" and schema.encoding == "jsonschema"
    assert channel.topic == "rec/g/" and channel.message_encoding == "json"
    assert json.loads(message.data) == example
    jsonschema.Draft202012Validator(json.loads(schema.data)).validate(json.loads(message.data))
    # Each bus-tap pub is a new process (a new epoch, seq from 1 again), yet both share the channel
    # of (rec/g/, gesture.event): channels are per topic and schema, not per publisher.
    assert [m.sequence for _, _, m in messages] == [1, 1]
    assert len({c.id for _, c, _ in messages}) == 1
