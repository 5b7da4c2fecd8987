"""Nothing typed into the live page's memo editor is lost when the memo store dies mid-edit: the
store is killed with SIGKILL, the edit is committed meanwhile, and once a store runs again on the
same database the text is in `memo-store export` (the board resends until acknowledged)."""

import json
import time

import pytest

import viewstack

pytest.importorskip("playwright.sync_api")

SCENE = json.loads(viewstack.SCENE.read_text())
BOARD = next(v for v in SCENE["views"] if v.get("component", {}).get("kind") == "memoBoard")


def test_an_edit_committed_while_the_memo_store_is_down_reaches_the_store_once_it_restarts():
    with viewstack.Stack() as stack, viewstack.chromium() as browser:
        page = viewstack.open_page(browser, stack)
        viewstack.wait_until(page, "() => window.uibus && window.uibus.device")
        instance = BOARD["component"]["id"]
        page.evaluate("(i) => window.uibus.command(i, 'create', {text: 'before the crash', x: 60, y: 80})", instance)
        state = stack.listener.wait_for(
            "ui/memoBoard/", lambda s: any(m["text"] == "before the crash" and not m.get("pending") for m in s["memos"]),
            what="the memo acked")
        memo = next(m for m in state["memos"] if m["text"] == "before the crash")
        point = (BOARD["frame"]["x"] + memo["x"] + memo["width"] / 2, BOARD["frame"]["y"] + memo["y"] + memo["height"] / 2)

        stack.kill_memo_store()
        touch = viewstack.Touch(page)
        touch.double_tap_until(point, "(id) => window.uibus.editing === id", arg=memo["id"])
        page.evaluate("() => document.getElementById('memo-editor').select()")
        page.keyboard.insert_text("落ちている間の編集")
        page.keyboard.press("Enter")
        stack.listener.wait_for(
            "ui/memoBoard/",
            lambda s: any(m["id"] == memo["id"] and m["text"] == "落ちている間の編集" and m.get("pending") for m in s["memos"]),
            what="the edit shown pending")
        assert "落ちている間の編集" not in stack.export(), "no store ran: the edit cannot be stored yet"

        stack.start_memo_store()
        deadline = time.monotonic() + 30
        while "落ちている間の編集" not in stack.export():
            assert time.monotonic() < deadline, "the edit never reached memo-store export after the restart"
            time.sleep(0.2)
        stack.listener.wait_for(
            "ui/memoBoard/",
            lambda s: any(m["id"] == memo["id"] and m["text"] == "落ちている間の編集" and not m.get("pending")
                          for m in s["memos"]),
            what="the edit acked")
        assert page.errors == []
