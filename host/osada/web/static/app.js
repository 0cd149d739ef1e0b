// Osada's live board: one WebSocket to the host, each snapshot swapped in whole
// (the board and panel are the host's own drawing, HTML fragments of the monitor's
// text); reconnects by itself. No framework, no build step, nothing from the internet.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // writes only what differs: an unchanged page is not laid out again
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const setClass = (el, cls) => { if (el.className !== cls) el.className = cls; };
  let boxWidth = 0, zoomed = false;                      // the board's room, measured on load and resize only (no forced layout)
  let ws = null, snap = null, control = false, unlocked = false, retry = 500, shownKeys = "";
  let catalog = null, shownPicture = "", selected = null, shownBar = "";
  let shownBoard = null, shownPanel = null, shownFacts = "", shownEvents = "", shownCss = null, shownRing = null, shownForecast = null;
  const MARKS = { ok: "●", stale: "▲", bad: "✖" };

  function connLine(kind, text) {
    const cls = kind === "ok" ? "ok" : kind === "stale" ? "stale" : "bad";
    const word = kind === "ok" ? "LIVE" : kind === "stale" ? "NOT LIVE" : kind === "host" ? "NO HOST" : "NO BOARD";
    setClass($("conn"), "conn " + cls);
    setText($("conn").firstElementChild, MARKS[cls] + " " + word);
    setText($("conntext"), text);
  }

  function banner(text) {
    if ($("banner").hidden !== !text) $("banner").hidden = !text;
    setText($("banner"), text || "");
  }

  function fitBoard() {
    if (!snap) return;
    if (!boxWidth) boxWidth = $("boardsec").clientWidth;
    const box = boxWidth;
    const wide = box / snap.cols.wide >= 7.0;          // px per column: the wide board where it reads well
    const cols = wide ? snap.cols.wide : snap.cols.narrow;
    const pre = $("board");
    const html = wide ? snap.board.wide : snap.board.narrow;
    if (html !== shownBoard) {                         // only what changed is redrawn
      pre.innerHTML = html;
      shownBoard = html;
      pre.dataset.variant = wide ? "wide" : "narrow";
    }
    const fit = Math.max(6, Math.min(wide ? 26 : 20, Math.floor(box / (cols * 0.61) * 10) / 10));
    const size = (zoomed && !wide ? Math.max(13, fit * 1.6) : fit) + "px";   // a tap zooms a phone's board
    if (pre.style.fontSize !== size) pre.style.fontSize = size;
    const ring = $("ring"), rhtml = snap.ring ? (wide ? snap.ring.wide : snap.ring.narrow) : "";
    if (ring.hidden !== !rhtml) ring.hidden = !rhtml;  // Siege: the ring under the board (the others' board is it)
    if (rhtml !== shownRing) { ring.innerHTML = rhtml; shownRing = rhtml; }
    if (ring.style.fontSize !== size) ring.style.fontSize = size;
  }

  function picture(s) {                               // Siege as a picture, from its state (siege.js)
    const st = s.state && s.state.game;
    const on = !!(st && catalog && window.OsadaSiege);
    if ($("picsec").hidden !== !on) $("picsec").hidden = !on;
    if ($("hturn").hidden !== !on) $("hturn").hidden = !on;
    if (!on) { shownPicture = ""; return; }
    const risks = (s.forecast && s.forecast.risks) || null;
    const sig = JSON.stringify([st, risks]);
    if (sig === shownPicture) return;
    shownPicture = sig;
    window.OsadaSiege.draw($("picture"), st, catalog, risks);
    document.body.dataset.turn = String(st.turn);
    setText($("hturn"), "turn " + st.turn + " · player " + st.player);
    document.body.dataset.phase = String(st.phase);
    mark();
  }

  // Play by touch (issue 62 item 4), with the PIN: a tap on an enemy or a wall selects it and
  // the bar offers what makes sense for it, named as the monitor's keys are (the catalog);
  // the turn's own steps are always there. A tap's action goes as {"t": "act"}; end turn and
  // undo as the monitor's keys (their confirmations are the monitor's).
  function mark() {
    for (const n of $("picture").querySelectorAll(".selected")) n.classList.remove("selected");
    if (!selected) return;
    const q = selected.enemy ? '[data-enemy="' + selected.enemy + '"]' : '[data-cell="' + selected.sector + '/wall"]';
    const n = $("picture").querySelector(q);
    if (n) n.classList.add("selected"); else selected = null;
  }

  // the actions a tap may ask that take `target` ("enemy", "sector", null: none), as the host says (catalog.touch)
  const tapsOn = (target) => Object.keys(catalog.touch).filter((a) => catalog.touch[a] === target);

  function actionBar(s) {
    const bar = $("actionbar");
    const st = s && s.state && s.state.game;
    const on = !!(st && unlocked && s.control && catalog && s.game === "siege");
    if (bar.hidden !== !on) bar.hidden = !on;
    const sig = on ? JSON.stringify([selected, st.pending, st.enemies.length, s.buttons.length]) : "";
    if (sig === shownBar) return;
    shownBar = sig;
    bar.textContent = "";
    if (!on) return;
    const names = {};
    for (const k of catalog.games.siege.keys) names[k.action] = k;
    const add = (action, frame, label) => {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.action = action;
      b.textContent = label || (names[action] ? names[action].name : action.replace("_", " "));
      if (names[action]) b.title = names[action].what;
      b.addEventListener("click", () => send(frame));
      bar.append(b);
    };
    const e = selected && selected.enemy ? st.enemies.find((x) => x.id === selected.enemy) : null;
    if (e) {
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = (catalog.kinds[e.kind] || { name: e.kind }).name + " #" + e.id + ":";
      bar.append(who);
      for (const a of tapsOn("enemy")) if (a !== "choose") add(a, { t: "act", game: "siege", do: a, enemy: e.id });
      if (st.pending && (st.pending.candidates || []).includes(e.id))
        add("choose", { t: "act", game: "siege", do: "choose", enemy: e.id }, "choose it");
    } else if (selected && selected.sector) {
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = "sector " + selected.sector + ":";
      bar.append(who);
      for (const a of tapsOn("sector")) add(a, { t: "act", game: "siege", do: a, sector: selected.sector });
    }
    for (const a of tapsOn(null)) add(a, { t: "act", game: "siege", do: a });
    for (const b of s.buttons) if (b.action === "end_turn" || b.action === "undo")
      add(b.action, { t: "key", game: s.game, i: b.i }, b.label);
  }

  function facts(list) {
    const sig = JSON.stringify(list);
    if (sig === shownFacts) return;
    shownFacts = sig;
    const dl = $("facts");
    dl.textContent = "";
    for (const [label, words] of list) {
      const dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = label; dd.textContent = words;
      dl.append(dt, dd);
    }
  }

  function events(list) {
    const sig = JSON.stringify(list);
    if (sig === shownEvents) return;
    shownEvents = sig;
    const ol = $("events");
    ol.textContent = "";
    for (const line of list) {
      const li = document.createElement("li");
      li.textContent = line;
      ol.append(li);
    }
  }

  function keys(s) {
    const box = $("keys");
    const sig = unlocked ? s.game + JSON.stringify(s.buttons) : "";
    if (sig === shownKeys) return;
    shownKeys = sig;
    box.textContent = "";
    if (!unlocked) return;
    for (const b of s.buttons) {
      const n = b.digits || 0;
      if (n) {                                         // the digit keys: what they are, then 1..n
        const lab = document.createElement("span");
        lab.className = "keylabel";
        lab.textContent = b.label + ":";
        box.append(lab);
      }
      for (let d = n ? 1 : 0; d <= n; d++) {
        if (n && d === 0) continue;
        const btn = document.createElement("button");
        btn.type = "button";
        btn.textContent = n ? String(d) : b.label;
        btn.title = b.what;
        if (!n && b.keys && !b.label.endsWith(" " + b.keys)) {
          const k = document.createElement("kbd");
          k.textContent = b.keys;
          btn.append(k);
        }
        btn.addEventListener("click", () => send(n ? { t: "key", game: s.game, i: b.i, n: d }
                                                   : { t: "key", game: s.game, i: b.i }));
        box.append(btn);
      }
    }
  }

  function damaged(d) {                               // a damaged save, shown until acknowledged
    if ($("damaged").hidden !== !d) $("damaged").hidden = !d;
    setText($("damagedtext"), d ? d.lost + "." + (d.kept ? " " + d.kept + "." : "") : "");
    const canAck = !!d && unlocked;
    if ($("ackdamaged").hidden !== !canAck) $("ackdamaged").hidden = !canAck;
  }

  function apply(s) {
    const t0 = performance.now();
    const seqChanged = !snap || snap.seq !== s.seq;
    snap = s;
    document.body.dataset.rev = String(s.rev);
    const marks = { game: s.game, live: s.conn.live ? "yes" : "no", conn: s.conn.kind, role: s.role || "watcher" };
    for (const k in marks) if (document.body.dataset[k] !== marks[k]) document.body.dataset[k] = marks[k];
    const title = "Osada — " + s.game_short + (s.conn.live ? "" : " (not live)");
    if (document.title !== title) document.title = title;
    setText($("game"), s.game_name);
    connLine(s.conn.live ? "ok" : s.conn.kind === "lost" ? "stale" : "bad", s.conn.text);
    if (s.conn.kind === "lost") banner("The board is unplugged or gone: this is the last board seen. It comes back by itself.");
    else if (!s.conn.live) banner("No board connected: " + s.conn.text);
    else banner("");
    picture(s);
    if (s.css !== shownCss) { $("fragcss").textContent = s.css; shownCss = s.css; }   // the fragments' classes
    fitBoard();
    if (s.panel !== shownPanel) { $("panel").innerHTML = s.panel; shownPanel = s.panel; }
    facts(s.facts);
    events(s.events);
    if ($("fcsec").hidden !== !s.forecast) $("fcsec").hidden = !s.forecast;
    if (s.forecast && s.forecast.html !== shownForecast) { $("forecast").innerHTML = s.forecast.html; shownForecast = s.forecast.html; }
    damaged(s.damaged);
    setText($("status"), s.status.text);
    setClass($("status"), s.status.refused ? "refused" : "");
    keys(s);
    actionBar(s);
    if (seqChanged) {                 // when this page first showed the device's latest action (make bench)
      document.body.dataset.seq = String(s.seq);
      document.body.dataset.seqAt = String(performance.timeOrigin + performance.now());
      document.body.dataset.hostAt = String(s.at || 0);
      document.body.dataset.applyMs = (performance.now() - t0).toFixed(2);
    }
  }

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }

  function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.t === "snap") apply(m);
    else if (m.t === "hello") {
      control = !!m.control;
      $("ctlsec").hidden = !control;
    } else if (m.t === "reply") {
      $("reply").textContent = m.text;
      $("reply").className = m.ok ? "" : "refused";
      if (m.ok && /PIN accepted/.test(m.text)) {
        unlocked = true;
        $("pinform").hidden = true;
        if (snap) { keys(snap); actionBar(snap); }
      } else if (!m.ok && unlocked && /PIN/.test(m.text)) {
        // the PIN kept from before is refused (the host restarted with a new one): ask again
        unlocked = false;
        sessionStorage.removeItem("osada-pin");
        $("pinform").hidden = false;
        if (snap) { keys(snap); damaged(snap.damaged); }
      }
    }
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    ws = new WebSocket(url);
    ws.addEventListener("open", () => {
      retry = 500;
      document.body.dataset.host = "up";
      if (unlocked && sessionStorage.getItem("osada-pin")) send({ t: "pin", pin: sessionStorage.getItem("osada-pin") });
    });
    ws.addEventListener("message", onMessage);
    ws.addEventListener("close", () => {
      document.body.dataset.host = "down";
      document.body.dataset.live = "no";
      connLine("host", "lost the host computer (osada web stopped?) — reconnecting…");
      banner("Lost the host computer: reconnecting by itself…");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 4000);
    });
  }

  $("pinform").addEventListener("submit", (e) => {
    e.preventDefault();
    const pin = $("pin").value.trim();
    sessionStorage.setItem("osada-pin", pin);
    send({ t: "pin", pin: pin });
  });
  $("ackdamaged").addEventListener("click", () => send({ t: "ack" }));
  $("picture").addEventListener("click", (ev) => {    // a tap selects an enemy, or a sector's wall
    const tok = ev.target.closest("[data-enemy]"), wall = ev.target.closest("[data-wall]");
    const cell = ev.target.closest("[data-cell]");
    if (tok) selected = { enemy: +tok.dataset.enemy };
    else if (wall) selected = { sector: +wall.dataset.cell.split("/")[0] };
    else if (cell) selected = { sector: +cell.dataset.cell.split("/")[0] };
    else selected = null;
    mark();
    if (snap) actionBar(snap);
  });
  window.addEventListener("resize", () => { boxWidth = 0; fitBoard(); });
  $("boardsec").addEventListener("click", () => {
    zoomed = !zoomed;
    document.body.classList.toggle("zoomed", zoomed);
    fitBoard();
  });
  try { catalog = JSON.parse($("catalog").textContent); } catch (e) { catalog = null; }   // the facts it draws with
  const first = $("first");          // the snapshot the host had when it served the page: drawn at once
  if (first) { try { apply(JSON.parse(first.textContent)); } catch (e) { /* the WebSocket's comes next */ } }
  connect();
})();
