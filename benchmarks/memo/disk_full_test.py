#!/usr/bin/env python3
"""Full-disk test for memo-store: fill a small filesystem, check no unstored command is acked.

Mount a small filesystem first (as root: `mount -t tmpfs -o size=600k tmpfs /tmp/tfs`), then
`disk_full_test.py --bin .build/release/memo-store --dir /tmp/tfs`. The driver sends creates
with ~4 KB of Japanese text until the store answers `rejected` ("not stored: … full"), then
checks that every `ok` ack is in the file, none of the rejected ones is, that the store still
answers after the disk filled, and that `memo-store check` passes.
"""
import argparse, json, os, sqlite3, subprocess, sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--dir", required=True)
    args = parser.parse_args()
    db = os.path.join(args.dir, "memo.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)
    proc = subprocess.Popen([args.bin, "apply", "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    ok, rejected, reasons = [], [], set()
    for i in range(2000):
        command = {"cmd_id": f"full:{i}", "client": "d", "op": "create", "memo_id": f"f{i}",
                   "text": f"満杯テスト{i} " + "東京タワーの会議メモ" * 130}
        proc.stdin.write(json.dumps(command, ensure_ascii=False) + "\n")
        while True:
            message = json.loads(proc.stdout.readline())
            if message["topic"].startswith("memo/ack/"):
                break
        ack = message["payload"]
        if ack["status"] == "ok":
            ok.append(ack["cmd_id"])
        else:
            rejected.append(ack["cmd_id"])
            reasons.add(ack.get("reason", "")[:80])
        if len(rejected) >= 20:
            break
    # The store must still answer (a read-only command) once the disk is full.
    proc.stdin.write(json.dumps({"cmd_id": "after", "client": "d", "op": "search", "query": "満杯テスト1"},
                                ensure_ascii=False) + "\n")
    answered = False
    while True:
        line = proc.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message["topic"].startswith("memo/ack/") and message["payload"]["cmd_id"] == "after":
            answered = message["payload"]["status"] == "ok"
            break
    proc.stdin.close()
    proc.wait()
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    stored = {row[0] for row in conn.execute("SELECT cmd_id FROM applied_cmd")}
    conn.close()
    check = subprocess.run([args.bin, "check", "--db", db], capture_output=True, text=True)
    report = {
        "acked_ok": len(ok),
        "rejected": len(rejected),
        "reasons": sorted(reasons),
        "acked_ok_not_stored": len(set(ok) - stored),
        "rejected_but_stored": len(set(rejected) & stored),
        "answered_after_full": answered,
        "exit_code": proc.returncode,
        "integrity": "ok" if check.returncode == 0 else check.stdout.strip(),
    }
    print(json.dumps(report, ensure_ascii=False, indent=1))
    good = rejected and not report["acked_ok_not_stored"] and not report["rejected_but_stored"] and answered
    sys.exit(0 if good and check.returncode == 0 else 1)


if __name__ == "__main__":
    main()
