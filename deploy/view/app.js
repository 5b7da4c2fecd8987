// The live UIBus page: frames from the bus on a canvas, pointer events back as touch frames,
// a memo editor (a real text field, so the browser's IME works) and an inspector.
// Served by uibus-view; talks to it over one WebSocket (see Sources/ViewService/WebServer.swift).
'use strict';

(() => {
  const token = new URLSearchParams(location.search).get('token') || '';
  const canvas = document.getElementById('screen');
  const context = canvas.getContext('2d');
  const editor = document.getElementById('memo-editor');
  const connectionLabel = document.getElementById('connection');

  // ---- Connection -------------------------------------------------------------------------
  let socket = null;
  let device = null;
  let scene = null;
  let retryMs = 250;

  function connect() {
    const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
    socket = new WebSocket(url, 'uibus-view');
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => { retryMs = 250; };
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') textReceived(JSON.parse(event.data));
      else frameReceived(event.data);
    };
    socket.onclose = (event) => {
      device = null;
      contacts.clear();
      connectionLabel.textContent = `disconnected${event.reason ? ': ' + event.reason : ''}; retrying`;
      connectionLabel.className = 'bad';
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function textReceived(message) {
    switch (message.type) {
      case 'hello':
        device = message.device;
        scene = message.scene || null;
        connectionLabel.textContent = `live as ${device}`;
        connectionLabel.className = 'ok';
        if (document.hidden) send({ type: 'visibility', visible: false });
        break;
      case 'bus': for (const record of message.messages) busMessage(record); break;
      case 'rates': showRates(message.topics, message.window_s); break;
    }
  }

  // ---- Frames -----------------------------------------------------------------------------
  // A frame comes as tiles to draw over the canvas in order (the first packet's first tile is the
  // whole frame). A packet starts decoding when it arrives (createImageBitmap decodes off this
  // thread), so it does not queue behind the one before, and is drawn once that one is; at most
  // `maximumDecodes` packets at a time: tiles that arrive meanwhile wait, added to those waiting
  // (a key frame replaces them), so nothing that still shows is skipped.
  const stats = { frames: 0, tiles: 0, dropped: 0, latencies: [], arrivals: [], timeline: [] };
  const maximumDecodes = 2;
  let frameInfo = null;   // the header of the frame on the canvas
  let decodes = 0;        // packets decoding or waiting for the one before to be drawn
  let drawn = Promise.resolve();  // the newest packet's drawing: the next is drawn after it
  let waiting = null;
  let lastMeasuredInput = null;
  let lastArrivedInput = null;

  function frameReceived(buffer) {
    const view = new DataView(buffer);
    const headerLength = view.getUint32(0);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, headerLength)));
    let offset = 4 + headerLength;
    const tiles = header.tiles.map(([x, y, width, height, encoding, bytes]) => {
      const blob = new Blob([new Uint8Array(buffer, offset, bytes)], { type: `image/${encoding}` });
      offset += bytes;
      return { x, y, width, height, blob };
    });
    // Input -> frame here (before decoding), to split input -> pixels into transport and drawing.
    const arrivedMs = performance.now();
    if (header.input && header.input.device === device && header.input.seq !== lastArrivedInput) {
      lastArrivedInput = header.input.seq;
      if (tiles.length > 0) stats.arrivals.push(arrivedMs - header.input.t_ns / 1e6);
      if (stats.arrivals.length > 2000) stats.arrivals.splice(0, stats.arrivals.length - 2000);
    }
    header.arrivedMs = arrivedMs;
    // Frames this page never shows: those uibus-view sent no packet of (this one carries what
    // they changed), and one waiting to be decoded that a newer change joins.
    stats.dropped += header.skipped || 0;
    if (waiting || decodes >= maximumDecodes) {
      if (waiting && tiles.length > 0) stats.dropped += 1;
      if (waiting && !header.key) {
        waiting = {
          header: { ...header, key: waiting.header.key, arrivedMs: waiting.header.arrivedMs },
          tiles: waiting.tiles.concat(tiles),
        };
      } else {
        waiting = { header, tiles };
      }
      return;
    }
    decode(header, tiles);
  }

  function decode(header, tiles) {
    decodes += 1;
    const decoded = Promise.all(tiles.map((tile) => createImageBitmap(tile.blob)));
    decoded.catch(() => {});  // handled where it is drawn (counted as dropped), maybe later
    drawn = drawn.then(() => decoded).then((bitmaps) => {
      if (header.key && (canvas.width !== header.width || canvas.height !== header.height)) {
        canvas.width = header.width;
        canvas.height = header.height;
        fitCanvas();
      }
      bitmaps.forEach((bitmap, index) => {
        context.drawImage(bitmap, tiles[index].x, tiles[index].y);
        bitmap.close();
      });
      frameInfo = header;
      if (tiles.length > 0) stats.frames += 1;
      stats.tiles += tiles.length;
      measure(header, tiles.length > 0);
    }).catch(() => { stats.dropped += 1; }).finally(() => {
      decodes -= 1;
      if (waiting) {
        const next = waiting;
        waiting = null;
        decode(next.header, next.tiles);
      }
    });
  }

  // Input -> pixels: from the pointer event (its timeStamp went out as the touch frame's t_ns)
  // to the first animation frame after the frame reflecting it was drawn; once per input. A frame
  // without tiles names input that changed no pixel: nothing to measure, but a later frame (an
  // animation, a timer) is then not taken for that input's effect. The timeline keeps, per
  // input, when it was sent and its frame arrived, was drawn and showed (performance.now()).
  function measure(header, changed) {
    const input = header.input;
    if (!input || input.device !== device) return;
    const key = `${input.device}/${input.seq}`;
    if (key === lastMeasuredInput) return;
    lastMeasuredInput = key;
    if (!changed) return;
    const eventMs = input.t_ns / 1e6;
    const drawnMs = performance.now();
    requestAnimationFrame(() => {
      const shownMs = performance.now();
      stats.latencies.push(shownMs - eventMs);
      const sentMs = sentAt.get(Math.round(eventMs * 1000)) ?? null;
      stats.timeline.push({ seq: input.seq, event_ms: eventMs, sent_ms: sentMs, arrived_ms: header.arrivedMs, drawn_ms: drawnMs, shown_ms: shownMs });
      for (const list of [stats.latencies, stats.timeline]) if (list.length > 2000) list.splice(0, list.length - 2000);
    });
  }

  function percentile(values, p) {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  }

  function fitCanvas() {
    // One image pixel per device pixel when it fits; smaller when the window is narrow.
    canvas.style.width = `${canvas.width / devicePixelRatio}px`;
  }

  // ---- Touch in ---------------------------------------------------------------------------
  // Contacts open on this page: pointer id -> contact ids sent (two for Alt+mouse).
  const contacts = new Map();
  let nextContact = 1;

  function scenePoint(event) {
    // CSS pixels -> canvas pixels (the canvas may be scaled to fit) -> scene points.
    const rect = canvas.getBoundingClientRect();
    const scale = frameInfo ? frameInfo.scale : 1;
    return {
      x: (event.clientX - rect.left) * (canvas.width / rect.width) / scale,
      y: (event.clientY - rect.top) * (canvas.height / rect.height) / scale,
    };
  }

  /**
   * The centre of the view a touch at this scene point lands on, hit-tested as the recognizer
   * does (highest `z` first, then the later view), or the screen's centre off every view.
   */
  function viewCentreAt(point) {
    const views = ((scene && scene.views) || []).map((view, index) => ({ view, index }));
    views.sort((a, b) => (b.view.z || 0) - (a.view.z || 0) || b.index - a.index);
    const hit = views.find(({ view: { frame: f } }) =>
      point.x >= f.x && point.x < f.x + f.width && point.y >= f.y && point.y < f.y + f.height);
    if (hit) return { x: hit.view.frame.x + hit.view.frame.width / 2, y: hit.view.frame.y + hit.view.frame.height / 2 };
    const scale = frameInfo ? frameInfo.scale : 1;
    return { x: canvas.width / scale / 2, y: canvas.height / scale / 2 };
  }

  function pointsFor(entry, event) {
    const point = scenePoint(event);
    if (!entry.centre) return [point];
    // Alt+mouse, as in the iOS Simulator: a second finger mirrored about the centre of the view
    // the press landed on, so both fingers stay on it (a pinch or rotation about its centre).
    const centre = entry.centre;
    return [point, { x: 2 * centre.x - point.x, y: 2 * centre.y - point.y }];
  }

  // When each pointer event (by its timeStamp, in µs) was handled and sent, for the timeline.
  const sentAt = new Map();

  function sendContacts(entry, phase, event) {
    entry.last = { clientX: event.clientX, clientY: event.clientY };
    const points = pointsFor(entry, event);
    send({
      type: 'pointer', t: event.timeStamp,
      contacts: entry.ids.map((id, index) => ({ id, phase, x: points[index].x, y: points[index].y })),
    });
    sentAt.set(Math.round(event.timeStamp * 1000), performance.now());
    if (sentAt.size > 2000) sentAt.delete(sentAt.keys().next().value);
  }

  canvas.addEventListener('pointerdown', (event) => {
    if (!device || contacts.has(event.pointerId) || contacts.size >= 10) return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    const mirrored = event.pointerType === 'mouse' && event.altKey;
    const entry = {
      ids: mirrored ? [nextContact++, nextContact++] : [nextContact++],
      centre: mirrored ? viewCentreAt(scenePoint(event)) : null,
    };
    contacts.set(event.pointerId, entry);
    sendContacts(entry, 'began', event);
  });
  // Moves go out as the browser receives them (pointerrawupdate, in a secure context such as
  // 127.0.0.1), not with the next animation frame as pointermove is dispatched: a frame later on a
  // page that is drawing, more on a loaded host.
  const moveEvent = 'onpointerrawupdate' in window ? 'pointerrawupdate' : 'pointermove';
  canvas.addEventListener(moveEvent, (event) => {
    const entry = contacts.get(event.pointerId);
    if (entry) sendContacts(entry, 'moved', event);
  });
  for (const type of ['pointerup', 'lostpointercapture']) {
    canvas.addEventListener(type, (event) => {
      const entry = contacts.get(event.pointerId);
      if (!entry) return;
      contacts.delete(event.pointerId);
      sendContacts(entry, 'ended', event);
    });
  }
  canvas.addEventListener('pointercancel', (event) => {
    // The browser took the pointer (a system gesture): every open touch of this page ends.
    for (const [pointer, entry] of contacts) {
      const at = pointer === event.pointerId ? event : { ...entry.last, timeStamp: event.timeStamp };
      sendContacts(entry, 'cancelled', at);
    }
    contacts.clear();
  });
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());

  document.addEventListener('visibilitychange', () => {
    // The service cancels this page's touches when it is hidden and tells the components.
    if (document.hidden) contacts.clear();
    send({ type: 'visibility', visible: !document.hidden });
  });

  // ---- Memo editor and search -------------------------------------------------------------
  const board = { instance: null, state: null, view: null };
  let editing = null;          // memo id open in the editor
  const unacked = new Map();   // memo id -> { text, sentAt }: edits sent until the board shows them

  function boardView() {
    if (!scene) return null;
    return (scene.views || []).find((view) => view.component && view.component.kind === 'memoBoard') || null;
  }

  function boardChanged(instance, state) {
    board.instance = instance;
    board.state = state;
    for (const [memoID, edit] of unacked) {
      const memo = (state.memos || []).find((m) => m.id === memoID);
      if (memo && memo.text === edit.text && !memo.pending) unacked.delete(memoID);
    }
    const wanted = state.editing || null;
    if (wanted && wanted !== editing) openEditor(wanted);
    if (!wanted && editing && document.activeElement !== editor) closeEditor(false);
  }

  /**
   * A memo board delta applied to the board as the page holds it (schemas/memoBoard.delta): memos
   * and trash upsert by id, removed ids leave both, the other fields replace the state's. A delta
   * for another revision is left: the board's next full state brings the page up to date.
   */
  function applyBoardDelta(delta) {
    const state = board.state;
    if (!state || state.instance !== delta.instance || state.revision !== delta.base_revision) return;
    const changed = new Set([...delta.memos, ...delta.trash].map((memo) => memo.id).concat(delta.removed));
    const unchanged = (list) => (list || []).filter((memo) => !changed.has(memo.id));
    const next = {
      ...state,
      memos: unchanged(state.memos).concat(delta.memos),
      trash: unchanged(state.trash).concat(delta.trash),
      revision: delta.revision,
    };
    for (const key of ['t_ms', 'selected', 'arrange_order', 'background', 'editing', 'store_seq',
      'pending_commands', 'syncing']) next[key] = delta[key];
    if ('search' in delta) next.search = delta.search;
    boardChanged(delta.instance, next);
  }

  function openEditor(memoID) {
    if (editing === memoID) return;
    const memo = (board.state.memos || []).find((m) => m.id === memoID);
    const view = boardView();
    if (!memo || !view) return;
    editing = memoID;
    const rect = canvas.getBoundingClientRect();
    const scale = frameInfo ? frameInfo.scale : 1;
    const cssPerPoint = (rect.width / canvas.width) * scale;
    editor.style.left = `${(view.frame.x + memo.x) * cssPerPoint}px`;
    editor.style.top = `${(view.frame.y + memo.y) * cssPerPoint}px`;
    editor.style.width = `${Math.max(memo.width * cssPerPoint, 160)}px`;
    editor.style.height = `${Math.max(memo.height * cssPerPoint, 80)}px`;
    editor.value = memo.text || '';
    editor.hidden = false;
    editor.focus();
  }

  function closeEditor(commit) {
    if (!editing) return;
    const memoID = editing;
    editing = null;
    editor.hidden = true;
    if (commit) {
      const text = editor.value;
      unacked.set(memoID, { text, sentAt: performance.now() });
      send({ type: 'command', instance: board.instance, command: 'edit', args: { memo_id: memoID, text } });
    }
    send({ type: 'command', instance: board.instance, command: 'close_editor' });
  }

  editor.addEventListener('keydown', (event) => {
    // Enter while the IME composes confirms the composition, not the memo.
    if (event.isComposing || event.keyCode === 229) return;
    if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); closeEditor(true); }
    if (event.key === 'Escape') { event.preventDefault(); closeEditor(false); }
  });
  editor.addEventListener('blur', () => closeEditor(true));

  // Resend until the board shows the text acknowledged (the store may be restarting).
  setInterval(() => {
    const now = performance.now();
    for (const [memoID, edit] of unacked) {
      if (now - edit.sentAt < 1000 || !board.instance) continue;
      edit.sentAt = now;
      send({ type: 'command', instance: board.instance, command: 'edit', args: { memo_id: memoID, text: edit.text } });
    }
  }, 250);

  let searchTimer = null;
  document.getElementById('search').addEventListener('input', (event) => {
    clearTimeout(searchTimer);
    const query = event.target.value;
    searchTimer = setTimeout(() => {
      if (board.instance) send({ type: 'command', instance: board.instance, command: 'search', args: { query } });
    }, 150);
  });

  // ---- Inspector --------------------------------------------------------------------------
  const recent = [];             // the newest bus messages (all topics), oldest first
  const states = new Map();      // topic -> newest ui/ state
  const health = new Map();      // service -> newest health report
  const lanes = new Map();       // lane name -> [{ t, label }]
  const laneWindowMs = 10000;
  let topicFilter = '';

  let received = 0;

  function busMessage(record) {
    received += 1;
    record.n = received;
    recent.push(record);
    if (recent.length > 2000) recent.splice(0, recent.length - 2000);
    const data = record.data || {};
    const now = performance.now();
    if (record.topic.startsWith('ui/')) {
      states.set(record.topic, data);
      // One lane per component instance, its phases named by the service as the report names them
      // (a memo board's deltas too: the service applies them to the board's last full state).
      if (record.lane !== undefined) addLaneEvent(record.lane, record.phase, now);
      if (record.schema === 'state.memoBoard') boardChanged(data.instance, data);
      if (record.schema === 'memoBoard.delta') applyBoardDelta(data);
    } else if (record.topic.startsWith('gesture/')) {
      // One lane per gesture kind, as in the report: what the newest recognizer of that kind did.
      // Failures (every recognizer a touch did not match) would drown the rest, so they are left out.
      if (data.state !== 'failed') addLaneEvent(`gesture ${data.recognizer}`, `${data.state} (${data.name || data.view})`, now);
    } else if (record.topic.startsWith('sys/health/')) {
      // Restarts as this page saw them: every new process id of a service after the first.
      const pids = (health.get(data.service) || {}).pids || new Set();
      pids.add(data.pid);
      health.set(data.service, { ...data, pids });
    }
    dirty = true;
  }

  function addLaneEvent(lane, label, t) {
    const events = lanes.get(lane) || [];
    const last = events[events.length - 1];
    if (!last || last.label !== label) events.push({ t, label });
    while (events.length > 1 && events[1].t < t - laneWindowMs) events.shift();
    lanes.set(lane, events);
  }

  const laneColours = ['#0a84ff', '#30d158', '#ff9f0a', '#bf5af2', '#ff375f', '#64d2ff', '#ffd60a', '#ac8e68'];
  function colourOf(label) {
    let hash = 0;
    for (const c of label) hash = (hash * 31 + c.codePointAt(0)) >>> 0;
    return laneColours[hash % laneColours.length];
  }

  function drawLanes() {
    const lanesCanvas = document.getElementById('lanes');
    const names = [...lanes.keys()].sort();
    const rowHeight = 18;
    const labelWidth = 170;
    lanesCanvas.height = Math.max(40, names.length * rowHeight + 4);
    const g = lanesCanvas.getContext('2d');
    g.clearRect(0, 0, lanesCanvas.width, lanesCanvas.height);
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'middle';
    const now = performance.now();
    const width = lanesCanvas.width - labelWidth;
    const x = (t) => labelWidth + Math.max(0, (t - (now - laneWindowMs)) / laneWindowMs) * width;
    names.forEach((name, row) => {
      const y = row * rowHeight + 2;
      g.fillStyle = '#aeaeb2';
      g.fillText(name.slice(0, 28), 4, y + rowHeight / 2);
      const events = lanes.get(name);
      events.forEach((event, index) => {
        const end = index + 1 < events.length ? events[index + 1].t : now;
        g.fillStyle = colourOf(event.label);
        g.fillRect(x(event.t), y + 2, Math.max(1, x(end) - x(event.t)), rowHeight - 4);
        if (x(end) - x(event.t) > 40) {
          g.fillStyle = '#000';
          g.fillText(event.label.slice(0, 16), x(event.t) + 3, y + rowHeight / 2);
        }
      });
    });
  }

  /**
   * Fills a table body with rows of [text, className] cells, unless it already shows them: every
   * page watching would otherwise lay out and repaint its inspector for each bus batch.
   */
  function fillTable(body, rows) {
    const shown = JSON.stringify(rows);
    if (body.dataset.shown === shown) return;
    body.dataset.shown = shown;
    body.replaceChildren();
    for (const cells of rows) {
      const row = body.insertRow();
      for (const [text, className] of cells) {
        const td = row.insertCell();
        td.textContent = text;
        if (className) td.className = className;
      }
    }
  }

  function drawHealth() {
    fillTable(document.querySelector('#health tbody'), [...health].sort().map(([service, report]) => {
      const counters = report.counters || {};
      return [[service], [report.state, `state-${report.state}`], [report.pids.size - 1, 'num'],
        [counters.gaps ?? 0, 'num'], [counters.rejected ?? 0, 'num']];
    }));
  }

  function showRates(topics, windowS) {
    const rows = Object.entries(topics).sort((a, b) => b[1] - a[1]).slice(0, 24);
    fillTable(document.querySelector('#rates tbody'), rows.map(([topic, count]) => [[topic], [(count / windowS).toFixed(0), 'num']]));
  }

  // The list keeps the newest 200 messages the filter passes, newest first. Only the messages
  // since the last drawing are added (rebuilding 200 rows every 200 ms held up the frames on
  // this thread); a new filter rebuilds it.
  let listed = { filter: null, upTo: 0 };

  function messageItem(record) {
    const item = document.createElement('li');
    const time = new Date(record.wall_ms).toISOString().slice(11, 23);
    item.innerHTML = `${time} <span class="topic"></span> <span class="schema"></span> <span class="data"></span>`;
    item.querySelector('.topic').textContent = record.topic;
    item.querySelector('.schema').textContent = record.schema;
    item.querySelector('.data').textContent = record.data ? JSON.stringify(record.data).slice(0, 240) : `(${record.bytes} bytes)`;
    return item;
  }

  function drawMessages() {
    const list = document.getElementById('messages');
    if (listed.filter !== topicFilter) {
      list.replaceChildren();
      listed = { filter: topicFilter, upTo: 0 };
    }
    const fresh = recent.filter((r) => r.n > listed.upTo && r.topic.startsWith(topicFilter)).slice(-200);
    if (recent.length > 0) listed.upTo = recent[recent.length - 1].n;
    list.prepend(...fresh.reverse().map(messageItem));
    while (list.children.length > 200) list.lastElementChild.remove();
  }

  document.getElementById('topic-filter').addEventListener('input', (event) => {
    topicFilter = event.target.value.trim();
    dirty = true;
  });

  // The inspector is drawn when the page's thread is idle (within a second at the latest), so its
  // DOM and canvas work does not hold up a frame arriving, decoding or showing.
  let dirty = true;
  let inspectorDue = false;
  setInterval(() => {
    if (inspectorDue) return;
    inspectorDue = true;
    requestIdleCallback(() => { inspectorDue = false; drawInspector(); }, { timeout: 1000 });
  }, 200);

  function drawInspector() {
    drawLanes();
    if (!dirty) return;
    dirty = false;
    drawHealth();
    drawMessages();
    const p50 = percentile(stats.latencies, 0.5);
    const p99 = percentile(stats.latencies, 0.99);
    document.getElementById('latency').textContent = p50 === null
      ? `${stats.frames} frames` : `${stats.frames} frames · input→pixels p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms · ${stats.dropped} dropped`;
  }

  // ---- For scripts and tests --------------------------------------------------------------
  window.uibus = {
    stats() {
      return {
        frames: stats.frames,
        input_to_pixels_p50_ms: percentile(stats.latencies, 0.5),
        input_to_pixels_p99_ms: percentile(stats.latencies, 0.99),
        dropped: stats.dropped,
      };
    },
    /** Every input -> pixels sample kept (the newest 2000), in ms. */
    latencies() { return [...stats.latencies]; },
    /** Input -> frame received by the page (before decoding), the newest 2000, in ms. */
    arrivals() { return [...stats.arrivals]; },
    /**
     * Per input measured (the newest 2000): its touch frame `seq` and, in performance.now() ms,
     * the pointer event, its handling (sent on the WebSocket; null if not known), its frame's
     * arrival, drawing and the animation frame after.
     */
    timeline() { return { time_origin_ms: performance.timeOrigin, inputs: [...stats.timeline] }; },
    /** The client (CSS pixel) position of a scene point on the canvas, for scripted input. */
    clientPoint(x, y) {
      const rect = canvas.getBoundingClientRect();
      const scale = frameInfo ? frameInfo.scale : 1;
      return [rect.left + (x * scale * rect.width) / canvas.width, rect.top + (y * scale * rect.height) / canvas.height];
    },
    /** Sends a component command (`cmd/ui/<instance>/`) as the memo editor does. */
    command(instance, command, args) { send({ type: 'command', instance, command, args }); },
    get device() { return device; },
    get frame() { return frameInfo; },
    get editing() { return editing; },
    state(topic) { return states.get(topic) || null; },
    /** The inspector's lanes: lane name -> the phases shown on it, oldest first. */
    lanes() { return Object.fromEntries([...lanes].map(([name, events]) => [name, events.map((e) => e.label)])); },
  };

  connect();
})();
