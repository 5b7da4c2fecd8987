#!/usr/bin/env python3
"""Crash test for memo-store: kill -9 the store at random moments, restart it, retry.

The driver (this process, never killed) keeps a window of commands in flight, SIGKILLs the
store after a random delay, restarts it and resends every unacked command with the same
cmd_id (also any command unacked after --retry-s, since the bus may drop it). Two ways in:

  --via apply  `memo-store apply --db DB` (commands as JSON lines on stdin, bus messages as
               JSON lines on stdout): the store's batch path without the bus.
  --via bus    the live `memo-store --bus FILE --db DB` service behind a real `bus-proxy`:
               commands published on memo/cmd/ (MessagePack, schema memo.command), acks read
               from memo/ack/drv/. A command sent while no store is subscribed is dropped by
               ZeroMQ and comes back as a retry.

At the end it stops the store and checks, read-only:

  lost            acked `ok`/`duplicate` commands missing from applied_cmd (must be 0)
  lost creates    acked creates whose memo (found by its marker text) is missing (must be 0)
  applied twice   markers found in more than one memo (must be 0)
  recovered       committed but unacked before a kill, acked `duplicate` on retry (allowed)
  integrity       `memo-store check` (integrity_check, FTS5 integrity-check, foreign_key_check)

Usage: crash_test.py --bin .build/release/memo-store [--via apply|bus] [--commands 5000] [--kills 60]
                     [--rate 1500] [--seed 1]
(size --commands to about --rate × 0.5 s × --kills so that every kill falls among commands)
(--via bus takes bus-proxy from the directory of --bin.)
"""
import argparse, json, os, pathlib, random, select, shutil, signal, sqlite3, subprocess, sys, tempfile, time

WORDS = ["東京タワー", "会議メモ", "牛乳と卵", "ｶﾞｽ代", "ＡＢＣ商事", "トウキョウ", "締め切り", "買い物", "memo", "予定"]


def make_commands(n, rng):
    """Mixed commands; ops that need a memo name one created earlier (proposed ids)."""
    commands, created = [], []
    for i in range(n):
        cmd_id = f"drv:{i}"
        roll = rng.random()
        if not created or roll < 0.35:
            memo_id = f"d{i}"
            created.append(memo_id)
            text = f"{rng.choice(WORDS)} {rng.choice(WORDS)} #{cmd_id}#"
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "create", "memo_id": memo_id,
                             "text": text, "x": rng.uniform(0, 1000), "y": rng.uniform(0, 800)})
            continue
        memo_id = rng.choice(created)
        if roll < 0.55:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "move", "memo_id": memo_id,
                             "x": rng.uniform(0, 1000), "y": rng.uniform(0, 800)})
        elif roll < 0.70:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "transform", "memo_id": memo_id,
                             "scale": rng.uniform(0.5, 2), "rotation": rng.uniform(-3, 3)})
        elif roll < 0.80:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "edit", "memo_id": memo_id,
                             "color": rng.choice(["yellow", "pink", "blue", "green"])})
        elif roll < 0.87:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "trash", "memo_id": memo_id})
        elif roll < 0.94:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "restore", "memo_id": memo_id})
        elif roll < 0.97:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "front", "memo_id": memo_id})
        else:
            commands.append({"cmd_id": cmd_id, "client": "drv", "op": "arrange",
                             "order": rng.choice(["created", "updated", "color", "text"])})
    return commands


class ApplyStore:
    """`memo-store apply`: commands on stdin, acks among the JSON lines on stdout."""

    def __init__(self, binary, db):
        self.binary, self.db, self.proc, self.buffer = binary, db, None, b""

    def start(self):
        self.proc = subprocess.Popen([self.binary, "apply", "--db", self.db], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.buffer = b""

    def ready(self):
        return True

    def send(self, commands):
        try:
            self.proc.stdin.write("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in commands).encode())
        except BrokenPipeError:
            pass

    def acks(self, timeout_s):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout_s)
        if not ready:
            return []
        self.buffer += os.read(self.proc.stdout.fileno(), 1 << 20)
        *lines, self.buffer = self.buffer.split(b"\n")
        messages = [json.loads(line) for line in lines]
        return [m["payload"] for m in messages if m["topic"].startswith("memo/ack/")]

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()

    def stop(self):
        self.proc.stdin.close()
        self.proc.stdout.read()  # drain: the store may still be writing changes for the last batches
        self.proc.wait()
        self.proc.stdout.close()

    def close(self):
        pass


class BusStore:
    """The live `memo-store` service behind a private `bus-proxy`; the driver is a PUB/SUB client."""

    def __init__(self, binary, db):
        sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "Tests" / "python"))
        import busproc, msgpack, zmq
        busproc.BIN = pathlib.Path(binary).resolve().parent
        self.msgpack, self.zmq = msgpack, zmq
        self.binary, self.db, self.proc = binary, db, None
        self.proxy = busproc.Proxy().__enter__()
        self.context = zmq.Context()
        self.pub = self.context.socket(zmq.PUB)
        self.pub.setsockopt(zmq.SNDHWM, 100000)
        self.pub.connect(self.proxy.publish)
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"memo/ack/drv/")
        self.sub.connect(self.proxy.subscribe)
        self.listening = False
        self.epoch, self.seq = random.randrange(1, 2**53), 0

    def start(self):
        self.proc = subprocess.Popen([self.binary, "--bus", self.proxy.bus, "--db", self.db],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.listening = False

    def ready(self):
        """Whether the service has said `ready` (it subscribes before it says so)."""
        if not self.listening and select.select([self.proc.stdout], [], [], 0)[0]:
            self.listening = b"ready" in os.read(self.proc.stdout.fileno(), 4096)
        return self.listening

    def send(self, commands):
        for command in commands:
            self.seq += 1
            now = time.time_ns()
            header = {"v": 1, "schema": "memo.command", "major": 1, "minor": 0, "pub": "crash-driver",
                      "epoch": self.epoch, "seq": self.seq, "mono": time.monotonic_ns(), "wall": now}
            self.pub.send_multipart([b"memo/cmd/", self.msgpack.packb(header), self.msgpack.packb(command)])

    def acks(self, timeout_s):
        acks = []
        if self.sub.poll(int(timeout_s * 1000)):
            while self.sub.poll(0):
                _, _, payload = self.sub.recv_multipart()
                acks.append(self.msgpack.unpackb(payload, raw=False))
        return acks

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc.stdout.close()

    def stop(self):
        self.proc.terminate()  # SIGTERM: the service closes the database (checkpoints the WAL)
        self.proc.wait(timeout=30)
        self.proc.stdout.close()

    def close(self):
        self.pub.close(linger=0)
        self.sub.close(linger=0)
        self.context.term()
        self.proxy.__exit__(None, None, None)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--via", choices=["apply", "bus"], default="apply")
    parser.add_argument("--commands", type=int, default=5000)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--window", type=int, default=64)
    parser.add_argument("--retry-s", type=float, default=0.5)
    parser.add_argument("--rate", type=float, default=1500, help="new commands per second at most")
    parser.add_argument("--max-gap-s", type=float, default=0.6, help="longest time between kills")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="database to use and keep (default: a temporary one, removed if the run passes)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="memo-crash-"), "memo.sqlite")
    commands = make_commands(args.commands, rng)
    by_id = {c["cmd_id"]: c for c in commands}
    order = {c["cmd_id"]: i for i, c in enumerate(commands)}
    first_status = {}       # cmd_id -> status of the first ack received
    statuses = {}           # cmd_id -> every status received
    attempts = 0
    next_new = 0
    kills = 0
    sent_at = {}            # unacked cmd_id -> when it was last sent (None: to resend now)
    store = (BusStore if args.via == "bus" else ApplyStore)(args.bin, db)
    started = time.monotonic()
    store.start()
    kill_at = None          # set once the store is ready, so every kill falls while it works
    while len(first_status) < len(commands) or kills < args.kills:  # size --commands to outlast the kills
        if not store.ready():
            time.sleep(0.002)  # the store is starting: nothing it could receive yet
            continue
        if kill_at is None:
            kill_at = time.monotonic() + rng.uniform(0.05, args.max_gap_s)
        # Refill the window: retries first (oldest command first), then new commands.
        now = time.monotonic()
        due = sorted((c for c, t in sent_at.items() if t is None or now - t >= args.retry_s), key=order.get)
        in_flight = len(sent_at) - len(due)
        batch = due[:max(0, args.window - in_flight)]
        paced = args.rate * (now - started)  # new commands paced so the kills fall among them
        while next_new < min(len(commands), paced) and in_flight + len(batch) < args.window:
            batch.append(commands[next_new]["cmd_id"])
            next_new += 1
        # Send in a few writes so the store sees several batches in flight.
        offset = 0
        while offset < len(batch):
            chunk = batch[offset:offset + rng.randint(1, 16)]
            offset += len(chunk)
            store.send([by_id[c] for c in chunk])
            attempts += len(chunk)
            for cmd_id in chunk:
                sent_at[cmd_id] = now
        for ack in store.acks(0.01):
            cmd_id = ack["cmd_id"]
            statuses.setdefault(cmd_id, []).append(ack["status"])
            first_status.setdefault(cmd_id, ack["status"])
            sent_at.pop(cmd_id, None)
        if time.monotonic() >= kill_at and kills < args.kills:
            store.kill()
            kills += 1
            for cmd_id in sent_at:
                sent_at[cmd_id] = None
            store.start()
            kill_at = None
    store.stop()
    store.close()
    seconds = time.monotonic() - started

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    applied = {row[0] for row in conn.execute("SELECT cmd_id FROM applied_cmd")}
    texts = [row[0] for row in conn.execute("SELECT text FROM memo")]
    conn.close()
    acked_ok = {c for c, s in first_status.items() if s in ("ok", "duplicate")}
    lost = acked_ok - applied
    markers = {}
    for text in texts:
        if "#drv:" in text:
            marker = text[text.index("#drv:"):]
            markers[marker] = markers.get(marker, 0) + 1
    creates_acked = {c for c in acked_ok if by_id[c]["op"] == "create"}
    lost_creates = [c for c in creates_acked if markers.get(f"#{c}#", 0) == 0]
    twice = [m for m, n in markers.items() if n > 1]
    recovered = sum(1 for c, s in statuses.items() if s[0] == "duplicate")
    check = subprocess.run([args.bin, "check", "--db", db], capture_output=True, text=True)
    report = {
        "via": args.via,
        "unique_commands": len(commands),
        "send_attempts": attempts,
        "acked": len(first_status),
        "acked_ok_or_duplicate": len(acked_ok),
        "acked_found": len(acked_ok & applied),
        "lost": len(lost),
        "lost_creates": len(lost_creates),
        "applied_twice": len(twice),
        "committed_but_unacked_recovered": recovered,
        "rejected": sum(1 for s in first_status.values() if s == "rejected"),
        "kill_cycles": kills,
        "seconds": round(seconds, 1),
        "integrity": "ok" if check.returncode == 0 else check.stdout.strip(),
    }
    passed = not lost and not lost_creates and not twice and check.returncode == 0
    if args.db or not passed:
        report["db"] = db
    else:
        shutil.rmtree(os.path.dirname(db))
    print(json.dumps(report, ensure_ascii=False, indent=1))
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
