"""The live view in a real browser: Playwright drives Debian's Chromium (nothing downloaded) on
the page uibus-view serves, in front of the real services on the demo scene.

Touches go in through CDP's Input.dispatchTouchEvent, Japanese through Input.imeSetComposition /
Input.insertText; what happened is read on the bus (a pyzmq listener), in the memo store's
export and on the page's canvas.
"""

import http.client
import json
import time

import pytest

import viewstack

pytest.importorskip("playwright.sync_api")

SCENE = json.loads(viewstack.SCENE.read_text())
VIEWS = {view["id"]: view for view in SCENE["views"]}


def centre(view_id, dx=0.0, dy=0.0):
    frame = VIEWS[view_id]["frame"]
    return (frame["x"] + frame["width"] / 2 + dx, frame["y"] + frame["height"] / 2 + dy)


@pytest.fixture(scope="module")
def stack():
    with viewstack.Stack() as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with viewstack.chromium() as launched:
        yield launched


@pytest.fixture
def page(stack, browser):
    opened = viewstack.open_page(browser, stack)
    viewstack.wait_until(opened, "() => window.uibus && window.uibus.device")
    yield opened
    assert opened.errors == []
    opened.context.close()


def test_the_page_needs_its_token_and_the_websocket_its_origin(stack):
    status, body = stack.get("/")
    assert status == 403
    status, _ = stack.get("/app.js")
    assert status == 403
    status, _ = stack.get("/?token=" + "0" * len(stack.token))
    assert status == 403
    status, body = stack.get(f"/?token={stack.token}")
    assert status == 200 and '<canvas id="screen"' in body
    # A WebSocket upgrade from another origin, with the right token, is refused.
    connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=10)
    connection.request(
        "GET", f"/ws?token={stack.token}",
        headers={"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                 "Sec-WebSocket-Version": "13", "Sec-WebSocket-Protocol": "uibus-view",
                 "Origin": "http://evil.example"})
    try:
        assert connection.getresponse().status != 101
    except (http.client.RemoteDisconnected, ConnectionResetError):
        pass
    connection.close()


def test_a_late_page_gets_the_current_frame_without_any_input(stack, browser):
    stack.listener.wait_for("render/tiles/", lambda body: True, what="(any frame)")
    page = viewstack.open_page(browser, stack)
    viewstack.wait_until(page, "() => window.uibus && window.uibus.stats().frames >= 1")
    frame = page.evaluate("() => window.uibus.frame")
    assert frame["width"] > 0 and frame["height"] > 0
    # The canvas holds the scene: not one flat colour.
    colours = page.evaluate(
        """() => { const c = document.getElementById('screen');
                   const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   const seen = new Set(); for (let i = 0; i < d.length; i += 4 * 997) seen.add(d[i] << 16 | d[i+1] << 8 | d[i+2]);
                   return seen.size; }"""
    )
    assert colours > 10
    page.context.close()


def header_pixels(page):
    frame = VIEWS["tableHeader"]["frame"]
    return page.evaluate(
        """([x, y, w, h]) => { const s = window.uibus.frame.scale;
               const d = document.getElementById('screen').getContext('2d')
                   .getImageData(x * s, y * s, w * s, h * s).data; return Array.from(d); }""",
        [frame["x"], frame["y"], frame["width"], frame["height"]],
    )


def test_input_that_changes_no_pixel_is_not_measured_on_a_later_frame(stack, page):
    """A state that draws what is on screen already, naming this page's input (a finger resting on
    a key), reaches the page as a frame without tiles; the next frame that changes pixels names
    that input too (the newest), and the page does not take it for that input's effect. Runs
    while the stack is idle (before any gesture), so no animation draws the input meanwhile."""
    device = page.evaluate("() => window.uibus.device")
    stack.listener.wait_for("ui/numberPad/", lambda s: True, what="the pad's state")
    topic, _, current = stack.listener.seen("ui/numberPad/")[-1]

    def publish(state):
        stack.proxy.tap("pub", topic, "--schema", "state.numberPad", json.dumps(state), "--wait-ms", "10000")

    resting = dict(current, input={"device": device, "seq": 900001, "source_time_ns": 1})
    publish(resting)
    viewstack.wait_until(page, "() => (window.uibus.frame.input || {}).seq === 900001")
    assert page.evaluate("() => window.uibus.frame.tiles.length") == 0, "the resting finger changed pixels"
    popped = {k: v for k, v in dict(current, highlighted=4, popup={"kind": "inner", "digit": 4}).items() if k != "input"}
    publish(popped)
    viewstack.wait_until(page, "() => window.uibus.frame.tiles.length > 0 && window.uibus.frame.input.seq === 900001")
    measured = [entry["seq"] for entry in page.evaluate("() => window.uibus.timeline().inputs")]
    publish({k: v for k, v in current.items() if k != "input"})
    assert 900001 not in measured, "the popup's frame was measured as the resting finger's"


def test_a_touch_drag_on_the_table_pulls_to_refresh(stack, page):
    viewstack.wait_until(page, "() => window.uibus.stats().frames > 0")
    before = header_pixels(page)
    touch = viewstack.Touch(page)
    start = centre("table", dy=-300)
    touch.drag(start, (start[0], start[1] + 260), steps=30, release=False)
    stack.listener.wait_for("ui/pullToRefresh/refresh1/", lambda s: s["phase"] == "overThreshold", what="overThreshold")
    touch.send("touchEnd", [])
    stack.listener.wait_for("ui/pullToRefresh/refresh1/", lambda s: s["phase"] == "refreshing", what="refreshing")
    phases = [s["phase"] for _, _, s in stack.listener.seen("ui/pullToRefresh/refresh1/")]
    firsts = [phases.index(p) for p in ("pullingDown", "overThreshold", "refreshing")]
    assert firsts == sorted(firsts), phases
    deadline = time.monotonic() + 30
    while header_pixels(page) == before:
        assert time.monotonic() < deadline, "the header's pixels never changed on the page's canvas"
        time.sleep(0.05)


def test_two_number_pad_taps_within_the_sequential_interval_give_their_string(stack, page):
    pad = next(v for v in SCENE["views"] if v.get("component", {}).get("kind") == "numberPad")
    frame = pad["frame"]
    key_width = frame["width"] / 10
    touch = viewstack.Touch(page)
    y = frame["y"] + frame["height"] / 2

    def reached():
        try:
            stack.listener.wait_for(
                "ui/numberPad/", lambda s: s["sequential_string"].endswith("12"), timeout_s=5.0,
                what="sequential_string 12")
            return True
        except AssertionError:
            return False

    touch.taps_until([(frame["x"] + key_width * 0.5, y), (frame["x"] + key_width * 1.5, y)], reached)


def memo_board(stack, predicate, what):
    return stack.listener.wait_for("ui/memoBoard/", predicate, what=what)


BOARD = next(v for v in SCENE["views"] if v.get("component", {}).get("kind") == "memoBoard")


def created_memo(stack, page, text, x=100, y=120):
    """Creates a memo at board point (x, y) through the page; (its state once acked, its centre in scene points)."""
    board = BOARD
    instance = board["component"]["id"]
    page.evaluate("([i, t, x, y]) => window.uibus.command(i, 'create', {text: t, x, y})", [instance, text, x, y])
    state = memo_board(stack, lambda s: any(m["text"] == text and not m.get("pending") for m in s["memos"]), text)
    memo = next(m for m in state["memos"] if m["text"] == text)
    frame = board["frame"]
    return memo, (frame["x"] + memo["x"] + memo["width"] / 2, frame["y"] + memo["y"] + memo["height"] / 2)


LANE = "(i) => (window.uibus.lanes()['memoBoard/' + i] || []).slice(-1)[0] || ''"


def test_the_inspectors_memo_board_lane_follows_the_boards_deltas(stack, page):
    instance = BOARD["component"]["id"]
    viewstack.wait_until(page, f"(i) => /^[0-9]+ memos$/.test(({LANE})(i))", arg=instance)
    before = int(page.evaluate(LANE, instance).split()[0])
    created_memo(stack, page, "lane")
    # After its full state the board sends deltas only: the new memo reaches the lane through one.
    deltas = stack.listener.seen(f"ui/memoBoard/{instance}/delta/")
    assert any(any(m["text"] == "lane" for m in d["memos"]) for _, _, d in deltas), "the memo came in a delta"
    viewstack.wait_until(page, f"([i, want]) => ({LANE})(i) === want", arg=[instance, f"{before + 1} memos"])


def test_a_two_touch_pinch_scales_a_memo(stack, page):
    memo, (x, y) = created_memo(stack, page, "pinch me")
    touch = viewstack.Touch(page)
    touch.send("touchStart", [(x - 15, y), (x + 15, y)])
    for step in range(1, 21):
        time.sleep(1 / 60)
        d = 15 + step * 3
        touch.send("touchMove", [(x - d, y), (x + d, y)])
    touch.send("touchEnd", [])
    memo_board(
        stack, lambda s: any(m["id"] == memo["id"] and m["scale"] > 1.5 for m in s["memos"]), "memo scaled past 1.5")


def test_a_two_finger_alt_mouse_pinch_mirrored_about_the_view_centre_scales_a_memo(stack, page):
    frame = BOARD["frame"]
    # A memo over the board's centre: the mirrored fingers' midpoint, where the pinch lands.
    memo, (x, y) = created_memo(stack, page, "alt pinch", x=frame["width"] / 2 - 80, y=frame["height"] / 2 - 60)
    device = page.evaluate("() => window.uibus.device")
    client = lambda px, py: page.evaluate("([x, y]) => window.uibus.clientPoint(x, y)", [px, py])
    page.keyboard.down("Alt")
    page.mouse.move(*client(x - 15, y))
    page.mouse.down()
    for step in range(1, 21):
        time.sleep(1 / 60)
        page.mouse.move(*client(x - 15 - step * 3, y))
    page.mouse.up()
    page.keyboard.up("Alt")
    began = stack.listener.wait_for(
        f"touch/{device}/", lambda f: len(f["contacts"]) == 2, what="two contacts from one mouse")
    first, second = began["contacts"]
    assert first["x"] + second["x"] == pytest.approx(2 * x, abs=1.5), "mirrored about the board's centre"
    assert first["y"] + second["y"] == pytest.approx(2 * y, abs=1.5)
    memo_board(
        stack, lambda s: any(m["id"] == memo["id"] and m["scale"] > 1.5 for m in s["memos"]), "memo scaled past 1.5")


def memo_pixels(page, memo):
    """The bottom right 20×20 scene points inside `memo` (clear of its text) on the page's canvas;
    None before the page has drawn a frame."""
    frame = BOARD["frame"]
    x, y = frame["x"] + memo["x"] + memo["width"] - 24, frame["y"] + memo["y"] + memo["height"] - 24
    return page.evaluate(
        """([x, y]) => { if (!window.uibus.frame) return null;
               const s = window.uibus.frame.scale;
               return Array.from(document.getElementById('screen').getContext('2d')
                   .getImageData(x * s, y * s, 20 * s, 20 * s).data); }""",
        [x, y],
    )


def is_yellow(pixels):
    """Whether RGBA `pixels` average the memos' default yellow (#FFF3A0), give or take JPEG noise."""
    count = len(pixels) // 4
    mean = [sum(pixels[channel::4]) / count for channel in range(3)]
    return all(abs(m - want) <= 8 for m, want in zip(mean, (0xFF, 0xF3, 0xA0)))


def wait_for_pixels(page, memo, predicate, what, timeout_s=30):
    deadline = time.monotonic() + timeout_s
    # Until the page has drawn its first frame there are no pixels to judge (None).
    while (pixels := memo_pixels(page, memo)) is None or not predicate(pixels):
        assert time.monotonic() < deadline, f"never on the canvas: {what}"
        time.sleep(0.05)


def test_the_search_field_sends_the_memo_search_and_the_board_shows_the_matches(stack, page):
    alpha, _ = created_memo(stack, page, "検索 alpha", x=20, y=440)
    beta, _ = created_memo(stack, page, "検索 beta", x=220, y=440)
    wait_for_pixels(page, beta, is_yellow, "the new memo drawn on the canvas")
    page.fill("#search", "ALPHA")
    state = memo_board(
        stack, lambda s: (s.get("search") or {}).get("query") == "ALPHA", "the search on the board")
    matched = {m["memo_id"] for m in state["search"]["matches"]}
    assert alpha["id"] in matched and beta["id"] not in matched, state["search"]
    # The match keeps its colour; the other memo fades (FloatyMemo+: only the matches stay active).
    wait_for_pixels(page, beta, lambda p: not is_yellow(p), "the memo that does not match faded")
    assert is_yellow(memo_pixels(page, alpha))
    cleared = len(stack.listener.seen("ui/memoBoard/"))
    page.fill("#search", "")
    stack.listener.wait_for("ui/memoBoard/", lambda s: "search" in s and s["search"] is None, what="cleared",
                            after=cleared)
    wait_for_pixels(page, beta, is_yellow, "the memo shown again")


def test_japanese_typed_into_a_memo_reaches_the_store(stack, page):
    memo, point = created_memo(stack, page, "edit me")
    touch = viewstack.Touch(page)
    # One tap brings a memo to the front (a `front` command, the memo pending until acked); it
    # does not open the editor.
    # On a loaded machine the browser can deliver the lift so late that the tap counts as a long
    # press (seen once in CI: the memo selected, no `front`); the test is about what a tap does,
    # so it taps again, 5 s apart (never a double tap).
    boards = len(stack.listener.seen("ui/memoBoard/"))
    fronted = []

    def sent_to_front():
        try:
            fronted.append(stack.listener.wait_for(
                "ui/memoBoard/", lambda s: any(m["id"] == memo["id"] and m.get("pending") for m in s["memos"]),
                timeout_s=5.0, what="the tapped memo sent to the front", after=boards))
            return True
        except AssertionError:
            return False

    touch.taps_until([point], sent_to_front)
    assert fronted[0].get("editing") is None, fronted[0]
    assert page.evaluate("() => window.uibus.editing") is None
    # A double tap opens it: the board says so and the page follows.
    touch.double_tap_until(point, "(id) => window.uibus.editing === id", arg=memo["id"])
    memo_board(stack, lambda s: s.get("editing") == memo["id"], "editing the memo")
    cdp = page.context.new_cdp_session(page)
    page.evaluate("() => { const e = document.getElementById('memo-editor'); e.select(); }")
    cdp.send("Input.imeSetComposition", {"text": "にほんご", "selectionStart": 4, "selectionEnd": 4})
    cdp.send("Input.insertText", {"text": "日本語のメモ"})
    page.keyboard.press("Enter")
    deadline = time.monotonic() + 20
    while "日本語のメモ" not in stack.export():
        assert time.monotonic() < deadline, "the Japanese text never reached memo-store export"
        time.sleep(0.2)
    memo_board(stack, lambda s: any(m["id"] == memo["id"] and m["text"] == "日本語のメモ" for m in s["memos"]), "acked")


def test_closing_the_page_mid_drag_cancels_its_touch(stack, browser):
    page = viewstack.open_page(browser, stack)
    viewstack.wait_until(page, "() => window.uibus && window.uibus.device")
    device = page.evaluate("() => window.uibus.device")
    touch = viewstack.Touch(page)
    start = centre("pager")
    touch.drag(start, (start[0] - 100, start[1]), steps=10, release=False)
    stack.listener.wait_for(f"touch/{device}/", lambda f: any(c["phase"] == "moved" for c in f["contacts"]), what="moved")
    page.context.close()
    frame = stack.listener.wait_for(
        f"touch/{device}/", lambda f: any(c["phase"] == "cancelled" for c in f["contacts"]), what="cancelled")
    assert all(c["phase"] == "cancelled" for c in frame["contacts"])


def raw_socket(page, script):
    """Opens a second WebSocket from the page (same origin and cookie) and runs `script` on open."""
    page.evaluate(
        """(script) => new Promise((resolve) => {
               const ws = new WebSocket(`ws://${location.host}/ws`, 'uibus-view');
               window.__raw = { closed: null, device: null };
               ws.onmessage = (e) => { if (typeof e.data === 'string' && !window.__raw.device) {
                   const m = JSON.parse(e.data); if (m.type === 'hello') { window.__raw.device = m.device;
                   new Function('ws', script)(ws); resolve(); } } };
               ws.onclose = (e) => { window.__raw.closed = `${e.code} ${e.reason}`; resolve(); };
           })""",
        script,
    )
    return page.evaluate("() => window.__raw.device")


def test_an_unknown_or_malformed_page_message_closes_that_connection_with_its_reason(stack, page):
    raw_socket(page, "ws.send(JSON.stringify({type: 'shell', cmd: 'rm -rf /'}));")
    viewstack.wait_until(page, "() => window.__raw.closed !== null")
    assert page.evaluate("() => window.__raw.closed") == "1008 unknown: type 'shell'"
    raw_socket(page, "ws.send('{\"type\":\"pointer\",\"t\":1,\"contacts\":[{\"id\":1,\"phase\":\"began\",\"x\":1e999}]}');")
    viewstack.wait_until(page, "() => window.__raw.closed !== null")
    assert page.evaluate("() => window.__raw.closed").startswith("1008 malformed")
    health = stack.listener.wait_for(
        "sys/health/uibus-view/",
        lambda h: h.get("extra", {}).get("closed_unknown", 0) >= 1 and h["extra"].get("closed_malformed", 0) >= 1,
        what="closed_unknown and closed_malformed counted")
    assert health["state"] == "ready"
    # The page's own connection is untouched.
    assert page.evaluate("() => document.getElementById('connection').className") == "ok"


def test_a_flood_of_pointer_events_is_coalesced_to_one_frame_per_contact_per_4_ms(stack, page):
    started = time.monotonic()
    device = raw_socket(
        page,
        """ws.send(JSON.stringify({type: 'pointer', t: 1, contacts: [{id: 1, phase: 'began', x: 300, y: 500}]}));
           for (let i = 0; i < 20000; i++)
             ws.send(JSON.stringify({type: 'pointer', t: 1 + i / 20, contacts: [{id: 1, phase: 'moved', x: 300 + i % 50, y: 500}]}));
           ws.send(JSON.stringify({type: 'pointer', t: 2000, contacts: [{id: 1, phase: 'ended', x: 300, y: 500}]}));""",
    )
    stack.listener.wait_for(f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "ended", what="ended")
    elapsed_ms = (time.monotonic() - started) * 1000
    frames = stack.listener.seen(f"touch/{device}/")
    # The service flushes every 4 ms at most; each flush sends one frame for the one contact.
    assert len(frames) <= elapsed_ms / 4 + 2, (len(frames), elapsed_ms)
    assert [f["contacts"][0]["phase"] for _, _, f in frames][0] == "began"
    # The page's own connection still works: a tap there still reaches the bus.
    own = page.evaluate("() => window.uibus.device")
    viewstack.Touch(page).tap(centre("pager"))
    stack.listener.wait_for(f"touch/{own}/", lambda f: f["contacts"][0]["phase"] == "ended", what="own tap")


def test_a_move_goes_out_when_the_browser_receives_it_not_with_the_next_animation_frame(stack, page):
    # Chromium dispatches pointermove with the next animation frame and pointerrawupdate as the
    # move arrives; the page sends moves from the latter. A raw update alone (no pointermove
    # follows this synthetic one) must reach the bus.
    device = page.evaluate("() => window.uibus.device")
    page.evaluate("""() => document.getElementById('screen').addEventListener(
                         'pointerdown', (e) => { window.__pointer = e.pointerId; })""")
    touch = viewstack.Touch(page)
    start = centre("pager")
    touch.send("touchStart", [start])
    viewstack.wait_until(page, "() => window.__pointer !== undefined")
    stack.listener.wait_for(f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "began", what="began")
    cx, cy = touch.client(start[0] + 37, start[1])
    page.evaluate(
        """([x, y]) => document.getElementById('screen').dispatchEvent(new PointerEvent(
               'pointerrawupdate', {pointerId: window.__pointer, pointerType: 'touch', clientX: x, clientY: y,
                                    bubbles: true}))""",
        [cx, cy],
    )
    moved = stack.listener.wait_for(
        f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "moved", what="the raw update's move")
    assert moved["contacts"][0]["x"] == pytest.approx(start[0] + 37, abs=1)
    touch.send("touchEnd", [])
    stack.listener.wait_for(f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "ended", what="ended")


def set_hidden(page, hidden):
    # Headless Chromium never hides a page by itself: the test sets what the browser would and
    # fires the event the page listens to.
    page.evaluate(
        """(hidden) => { Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
                         document.dispatchEvent(new Event('visibilitychange')); }""",
        hidden,
    )


def test_hiding_the_page_cancels_its_touch_and_resigns_active_and_showing_it_becomes_active(stack, page):
    device = page.evaluate("() => window.uibus.device")
    touch = viewstack.Touch(page)
    start = centre("pager")
    touch.drag(start, (start[0] - 60, start[1]), steps=6, release=False)
    stack.listener.wait_for(f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "moved", what="moved")
    # Other tests' pages are closed by now, so this page is the only one shown.
    lifecycle = "sys/lifecycle/uibus-view/"
    before = len(stack.listener.seen(lifecycle))
    set_hidden(page, True)
    stack.listener.wait_for(f"touch/{device}/", lambda f: f["contacts"][0]["phase"] == "cancelled", what="cancelled")
    stack.listener.wait_for(
        lifecycle, lambda m: m["event"] == "will_resign_active", what="will_resign_active", after=before)
    before = len(stack.listener.seen(lifecycle))
    set_hidden(page, False)
    stack.listener.wait_for(
        lifecycle, lambda m: m["event"] == "did_become_active", what="did_become_active", after=before)
    touch.send("touchEnd", [])


MESSAGE_ROWS = """() => [...document.querySelectorAll('#messages li')].map((item) =>
    [item.querySelector('.topic').textContent, item.textContent.slice(0, 12)])"""


def test_the_inspectors_message_list_keeps_the_newest_200_the_filter_passes_newest_first(stack, page):
    # A drag makes a few hundred messages (touch frames, gestures, states): more than the list keeps.
    touch = viewstack.Touch(page)
    for _ in range(3):
        touch.drag(centre("pager", dx=150), centre("pager", dx=-150), steps=40)
    viewstack.wait_until(page, "() => document.querySelectorAll('#messages li').length === 200")
    rows = page.evaluate(MESSAGE_ROWS)
    assert rows[0][1] > rows[-1][1], "newest first (wall times of several publishers: only the ends compared)"
    assert any(topic.startswith("touch/") for topic, _ in rows)
    page.fill("#topic-filter", "gesture/")
    viewstack.wait_until(page, "() => [...document.querySelectorAll('#messages .topic')].every((t) => t.textContent.startsWith('gesture/'))")
    touch.drag(centre("pager", dx=150), centre("pager", dx=-150), steps=10)
    viewstack.wait_until(page, "() => document.querySelectorAll('#messages li').length > 0")
    rows = page.evaluate(MESSAGE_ROWS)
    assert 0 < len(rows) <= 200 and all(topic.startswith("gesture/") for topic, _ in rows)
