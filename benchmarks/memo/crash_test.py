#!/usr/bin/env python3
"""Crash test for memo-store: kill -9 the store at random moments, restart it, retry.

The driver (this process, never killed) runs `memo-store apply --db DB` (commands as JSON
lines on stdin, bus messages as JSON lines on stdout), keeps a window of commands in
flight, SIGKILLs the store after a random delay, restarts it and resends every unacked
command with the same cmd_id. At the end it checks, read-only:

  lost            acked `ok`/`duplicate` commands missing from applied_cmd (must be 0)
  lost creates    acked creates whose memo (found by its marker text) is missing (must be 0)
  applied twice   markers found in more than one memo (must be 0)
  recovered       committed but unacked before a kill, acked `duplicate` on retry (allowed)
  integrity       `memo-store check` (integrity_check, FTS5 integrity-check, foreign_key_check)

Usage: crash_test.py --bin .build/release/memo-store [--commands 5000] [--kills 60] [--seed 1]
"""
import argparse, json, os, random, select, signal, sqlite3, subprocess, sys, tempfile, time

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--commands", type=int, default=5000)
    parser.add_argument("--kills", type=int, default=60)
    parser.add_argument("--window", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="memo-crash-"), "memo.sqlite")
    commands = make_commands(args.commands, rng)
    by_id = {c["cmd_id"]: c for c in commands}
    first_status = {}       # cmd_id -> status of the first ack received
    statuses = {}           # cmd_id -> every status received
    attempts = 0
    next_new = 0
    kills = 0
    in_flight = set()
    unacked_sent = set()    # sent at least once, no ack yet

    def start():
        return subprocess.Popen([args.bin, "apply", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, bufsize=0)

    proc = start()
    buffer = b""
    kill_at = time.monotonic() + rng.uniform(0.05, 0.6)
    while len(first_status) < len(commands):
        # Refill the window: retries first, then new commands.
        batch = []
        for cmd_id in sorted(unacked_sent - in_flight, key=lambda c: int(c.split(":")[1])):
            if len(in_flight) + len(batch) >= args.window:
                break
            batch.append(cmd_id)
        while next_new < len(commands) and len(in_flight) + len(batch) < args.window:
            batch.append(commands[next_new]["cmd_id"])
            next_new += 1
        if batch:
            # Send in a few writes so the store sees several batches in flight.
            chunks, offset = [], 0
            while offset < len(batch):
                size = rng.randint(1, 16)
                chunks.append(batch[offset:offset + size])
                offset += size
            try:
                for chunk in chunks:
                    proc.stdin.write("".join(json.dumps(by_id[c], ensure_ascii=False) + "\n" for c in chunk).encode())
                    attempts += len(chunk)
                    in_flight.update(chunk)
                    unacked_sent.update(chunk)
            except BrokenPipeError:
                pass
        ready, _, _ = select.select([proc.stdout], [], [], 0.01)
        if ready:
            data = os.read(proc.stdout.fileno(), 1 << 20)
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                if not message["topic"].startswith("memo/ack/"):
                    continue
                ack = message["payload"]
                cmd_id = ack["cmd_id"]
                statuses.setdefault(cmd_id, []).append(ack["status"])
                first_status.setdefault(cmd_id, ack["status"])
                in_flight.discard(cmd_id)
                unacked_sent.discard(cmd_id)
        if os.environ.get("CRASH_DEBUG") and rng.random() < 0.001:
            print("debug", len(first_status), len(in_flight), len(unacked_sent), next_new, kills, file=sys.stderr)
        if time.monotonic() >= kill_at and kills < args.kills:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            in_flight.clear()
            buffer = b""
            proc = start()
            kill_at = time.monotonic() + rng.uniform(0.05, 0.6)
    proc.stdin.close()
    proc.stdout.read()  # drain: the store may still be writing changes for the last batches
    proc.wait()

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
        "integrity": "ok" if check.returncode == 0 else check.stdout.strip(),
        "db": db,
    }
    print(json.dumps(report, ensure_ascii=False, indent=1))
    sys.exit(0 if not lost and not lost_creates and not twice and check.returncode == 0 else 1)


if __name__ == "__main__":
    main()
