#!/usr/bin/env python3
"""Takes the README's screenshot of the live page (docs/live-view.jpg) with a few gestures in flight.

    UIBUS_BIN_DIR=.build/debug python3 benchmarks/view/screenshot.py
"""

import json
import pathlib
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "python"))

import viewstack  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def main():
    scene = json.loads(viewstack.SCENE.read_text())
    views = {v["id"]: v["frame"] for v in scene["views"]}
    board = next(v for v in scene["views"] if v.get("component", {}).get("kind") == "memoBoard")
    out = REPO / "docs" / "live-view.jpg"
    out.parent.mkdir(exist_ok=True)
    with viewstack.Stack() as stack, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=viewstack.chromium_path(), args=["--no-sandbox"])
        context = browser.new_context(has_touch=True, viewport={"width": 1900, "height": 1000})
        page = context.new_page()
        page.goto(f"{stack.url}?token={stack.token}")
        viewstack.wait_until(page, "() => window.uibus && window.uibus.device && window.uibus.stats().frames > 0")
        texts = [("買い物: 牛乳、卵", 40, 60), ("UIBus live", 220, 200), ("会議 15:00", 60, 380)]
        for text, x, y in texts:
            page.evaluate("([i, t, x, y]) => window.uibus.command(i, 'create', {text: t, x, y})",
                          [board["component"]["id"], text, x, y])
        for text, _, _ in texts:  # full states and deltas: each memo acked in one of them
            stack.listener.wait_for("ui/memoBoard/", lambda s: any(m["text"] == text and not m.get("pending")
                                                                   for m in s["memos"]), what=text)
        touch = viewstack.Touch(page)
        pad = views[next(v["id"] for v in scene["views"] if v.get("component", {}).get("kind") == "numberPad")]
        for key in (0, 1, 2):
            touch.tap((pad["x"] + pad["width"] / 10 * (key + 0.5), pad["y"] + pad["height"] / 2))
        pager = views["pager"]
        touch.drag((pager["x"] + 400, pager["y"] + 300), (pager["x"] + 100, pager["y"] + 300), steps=20)
        table = views["table"]
        touch.drag((table["x"] + 200, 120), (table["x"] + 200, 330), steps=25, release=False)
        # The picture once the canvas shows the newest touch (the pull held open).
        device = page.evaluate("() => window.uibus.device")
        last = max(f["frame"] for _, _, f in stack.listener.seen(f"touch/{device}/"))
        viewstack.wait_until(page, "(seq) => ((window.uibus.frame || {}).input || {}).seq >= seq", arg=last)
        time.sleep(0.5)  # the inspector's next redraw (every 200 ms)
        page.screenshot(path=str(out), type="jpeg", quality=60)
        touch.send("touchEnd", [])
        browser.close()
    print(out)


if __name__ == "__main__":
    main()
