// Osada's live board: one WebSocket to the host, each snapshot drawn whole as a picture
// of the game (siege.js from Siege's state, ring.js from the other games' picture data:
// issue 62), with the facts, the forecast and the last events in words beside it;
// reconnects by itself. No framework, no build step, nothing from the internet.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // writes only what differs: an unchanged page is not laid out again
  const setText = (el, text) => { if (el.textContent !== text) el.textContent = text; };
  const setClass = (el, cls) => { if (el.className !== cls) el.className = cls; };
  let ws = null, snap = null, control = false, unlocked = false, retry = 500, shownKeys = "";
  let catalog = null, shownPicture = "", selected = null, shownBar = "";
  let shownFacts = "", shownEvents = "";
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

  // the smallest text a screen class reads (issue 62 item 3): a TV's across the room, a phone's in the hand
  const minText = () => (innerWidth >= 1800 ? 24 : 14);

  // The picture's text is in the SVG's own units, which the screen scales: siege.js and ring.js
  // make each at least minText() CSS px tall for the room the picture has, and here one wider
  // than its room (data-fit, in those units) is drawn narrower to fit rather than cut. A text's
  // own length is measured once for its words, class and size (a measure lays the page out:
  // twenty pages doing it for every token on every change were most of a change's time), all
  // of a drawing's new ones read before any is narrowed.
  const textLen = new Map();
  function fitText() {
    const todo = [];
    for (const t of $("picture").querySelectorAll("text[data-fit]")) {
      const key = t.getAttribute("class") + "|" + t.getAttribute("style") + "|" + t.textContent;
      let len = textLen.get(key);
      if (len === undefined) {
        len = t.getComputedTextLength();
        if (len > 0) {                                 // (0: not laid out, nothing to keep)
          if (textLen.size > 4000) textLen.clear();
          textLen.set(key, len);
        }
      }
      todo.push([t, len]);
    }
    for (const [t, len] of todo) {
      if (len > +t.dataset.fit && t.getAttribute("textLength") !== t.dataset.fit) {
        t.setAttribute("textLength", t.dataset.fit);
        t.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }

  function header(s) {                                // the game, the turn, the connection: one line
    const st = s.state && s.state.game, pic = s.picture;
    let turn = "";
    if (st) turn = "turn " + st.turn + " · player " + st.player;
    else if (pic && pic.round) turn = "round " + pic.round;
    else if (pic && pic.match_game) turn = "game " + pic.match_game;
    if ($("hturn").hidden !== !turn) $("hturn").hidden = !turn;
    setText($("hturn"), turn);
  }

  function picture(s) {                               // the game as a picture, from its data
    const st = s.state && s.state.game, pic = s.picture;
    const kind = st && catalog && window.OsadaSiege ? "siege" : pic && window.OsadaRing ? "ring" : "";
    if ($("picsec").hidden !== !kind) $("picsec").hidden = !kind;
    $("waiting").hidden = !!kind;
    if (document.body.dataset.view !== kind) document.body.dataset.view = kind;
    header(s);
    if (!kind) { shownPicture = ""; return; }
    const risks = (s.forecast && s.forecast.risks) || null;
    const sig = JSON.stringify([kind, st, risks, pic]);
    if (sig === shownPicture) return;
    shownPicture = sig;
    const w = $("picture").getBoundingClientRect().width;        // the room it has: its layout and text follow
    const fmin = (units) => (w ? minText() * units / w : 0);
    if (kind === "siege") {
      const tall = parseFloat(getComputedStyle($("picture")).maxHeight);   // a TV's: the screen; a phone's: none
      window.OsadaSiege.draw($("picture"), st, catalog, risks, { width: w, height: tall || Infinity, minPx: minText() });
      $("pictext").textContent = "";
      document.body.dataset.turn = String(st.turn);
      document.body.dataset.phase = String(st.phase);
      mark();
    } else {
      window.OsadaRing.draw($("picture"), $("pictext"), pic, fmin(window.OsadaRing.WIDTH));
    }
    if (!performance.getEntriesByName("osada-picture").length) performance.mark("osada-picture");   // (make bench)
    $("picture").setAttribute("aria-label", kind === "siege" ? "Siege's board: six sectors from the rear to the city"
                                                             : "the device's ring");
    fitText();
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

  // the bar's pieces: a button (its data-action, its words, what a tap on it does) and a label
  function button(action, label, onClick, extra) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.action = action;
    b.textContent = label;
    for (const k in extra || {}) b.setAttribute(k, extra[k]);
    b.addEventListener("click", onClick);
    return b;
  }
  function who(text) {
    const w = document.createElement("span");
    w.className = "who";
    w.textContent = text;
    return w;
  }

  // the actions a tap may ask that take `target` ("enemy", "sector", null: none), as the host says (catalog.touch)
  const tapsOn = (target) => Object.keys(catalog.touch).filter((a) => catalog.touch[a] === target);

  function actionBar(s) {
    const bar = $("actionbar");
    const st = s && s.state && s.state.game;
    const on = !!(st && unlocked && s.control && catalog && s.game === "siege");
    if (bar.hidden !== !on) bar.hidden = !on;
    const sig = on ? JSON.stringify([selected, st.pending, st.enemies.length, s.buttons.length, st.phase,
                                     st.marshal_hand, picked, pickedSector]) : "";
    if (sig === shownBar) return;
    shownBar = sig;
    bar.textContent = "";
    if (!on) return;
    const names = {};
    for (const k of catalog.games.siege.keys) names[k.action] = k;
    const add = (action, frame, label) => bar.append(button(action,
      label || (names[action] ? names[action].name : action.replace("_", " ")), () => send(frame),
      names[action] ? { title: names[action].what } : null));
    if (marshalPlays(s, st)) { marshalBar(bar, st); return; }
    const e = selected && selected.enemy ? st.enemies.find((x) => x.id === selected.enemy) : null;
    if (e) {
      bar.append(who((catalog.kinds[e.kind] || { name: e.kind }).name + " #" + e.id + ":"));
      for (const a of tapsOn("enemy")) if (a !== "choose") add(a, { t: "act", game: "siege", do: a, enemy: e.id });
      if (st.pending && (st.pending.candidates || []).includes(e.id))
        add("choose", { t: "act", game: "siege", do: "choose", enemy: e.id }, "choose it");
    } else if (selected && selected.sector) {
      bar.append(who("sector " + selected.sector + ":"));
      for (const a of tapsOn("sector")) add(a, { t: "act", game: "siege", do: a, sector: selected.sector });
    }
    for (const a of tapsOn(null)) add(a, { t: "act", game: "siege", do: a });
    for (const b of s.buttons) if (!b.by_tap)          // the turn's own keys: end turn, undo, roll, the forecast, the switch
      add(b.action || "switch", { t: "key", game: s.game, i: b.i }, b.label);
  }

  // The field marshal's play (R60), on his own page only (the host checks his PIN): his turn
  // (phase 7, not a patrol) or his extra play after a reveal. His hand's tokens are toggled,
  // a sector picked for a lone tank, then Play or Play nothing; the device judges the play
  // (a refused one shows its R60 sentence).
  let picked = [], pickedSector = null;
  function marshalPlays(s, st) {
    const pend = st.pending || {};
    return s.role === "marshal" && Array.isArray(st.marshal_hand) && st.outcome === "playing" &&
      (pend.choice === "marshal_extra" || (st.phase === 7 && !st.pending && !st.patrol));
  }

  function marshalBar(bar, st) {
    const pend = st.pending || {};
    const redraw = () => { shownBar = ""; actionBar(snap); };
    const pressed = (on) => ({ "aria-pressed": on ? "true" : "false" });
    bar.append(who(pend.choice === "marshal_extra" ? "Field marshal: up to " + pend.count + " tokens:"
                                                   : "Field marshal (R60): one tank, two tokens, or nothing:"));
    picked = picked.filter((i) => i < st.marshal_hand.length);
    st.marshal_hand.forEach((k, i) => {
      const on = picked.includes(i);
      bar.append(button("pick", (on ? "✓ " : "") + (catalog.kinds[k] || { name: k }).name, () => {
        picked = on ? picked.filter((j) => j !== i) : picked.concat([i]);
        redraw();
      }, Object.assign({ "data-token": k }, pressed(on))));
    });
    const lone = picked.length === 1 && !!(catalog.kinds[st.marshal_hand[picked[0]]] || {}).enemy;   // a lone tank: its sector
    if (lone && !pend.choice) {
      bar.append(who("sector:"));
      for (let n = 1; n <= 6; n++) {
        bar.append(button("sector", (pickedSector === n ? "✓ " : "") + n, () => { pickedSector = n; redraw(); },
                          Object.assign({ "data-sector": n }, pressed(pickedSector === n))));
      }
    }
    const play = (tokens) => {
      const frame = { t: "act", game: "siege", do: "marshal_play", tokens: tokens };
      if (lone && pickedSector && tokens.length === 1) frame.sector = pickedSector;
      send(frame);
      picked = []; pickedSector = null;
    };
    bar.append(button("marshal_play", "Play", () => play(picked.map((i) => st.marshal_hand[i]))),
               button("marshal_nothing", "Play nothing", () => play([])));
  }

  // A new game of Siege with its options (the catalog's words), from a page with the PIN; over a
  // game in progress the dialog says which and its button replaces it: the one question.
  function newGameDialog() {
    const ng = catalog.new_game, st = snap && snap.state && snap.state.game;
    const over = st && snap.seq && st.outcome === "playing";
    $("newover").hidden = !over;
    $("newover").textContent = over ? "A game is in progress (turn " + st.turn + ", " + snap.seq +
      " actions). Starting a new one replaces it; undo right after brings it back." : "";
    $("newstart").textContent = over ? "Replace the game" : "Start";
    $("playerslabel").textContent = ng.players;
    const sel = $("players");
    if (!sel.options.length) for (let n = 1; n <= 6; n++) sel.append(new Option(String(n), String(n)));
    const setup = (snap.state && snap.state.setup) || {};
    sel.value = String(setup.players || (st && Object.keys(st.trophies || {}).length) || 2);
    const box = (id, list, type, on) => {
      const fs = $(id);
      for (const n of [...fs.querySelectorAll("label")]) n.remove();
      for (const item of list) {
        const lab = document.createElement("label"), inp = document.createElement("input");
        inp.type = type; inp.name = id; inp.value = item.id; inp.checked = on(item.id);
        lab.append(inp, " " + item.name + " — " + item.what);
        fs.append(lab);
      }
    };
    box("modes", ng.modes, "radio", (m) => m === (setup.mode || "standard"));
    box("variants", ng.variants, "checkbox", (v) => (setup.variants || []).includes(v));
    $("newdialog").showModal();
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

  // The last events, newest first: a change's new lines are put on top and the oldest that
  // went taken off the end, the rest left as they are (the whole list written again only when
  // it changed otherwise).
  let shownLines = [];
  function events(list) {
    const sig = JSON.stringify(list);
    if (sig === shownEvents) return;
    shownEvents = sig;
    const ol = $("events"), li = (line) => { const e = document.createElement("li"); e.textContent = line; return e; };
    let k = 0;
    const same = (k) => list.slice(k).every((line, i) => line === shownLines[i]);
    while (k < list.length && !same(k)) k++;
    if (k === list.length || ol.children.length !== shownLines.length) {
      ol.textContent = "";
      ol.append(...list.map(li));
    } else {
      ol.prepend(...list.slice(0, k).map(li));
      while (ol.children.length > list.length) ol.lastElementChild.remove();
    }
    shownLines = list.slice();
  }

  function keys(s) {                                  // the other games' keys (Siege's are its picture's bar)
    const box = $("keys");
    const on = unlocked && !(s.state && s.state.game);
    const ng = !!(unlocked && s.control && s.state && s.state.game && catalog);
    if ($("newgame").hidden !== !ng) $("newgame").hidden = !ng;
    if ($("gamefile").hidden !== !(ng && device)) $("gamefile").hidden = !(ng && device);   // the device in this page
    const sig = on ? s.game + JSON.stringify(s.buttons) : "";
    if (sig === shownKeys) return;
    shownKeys = sig;
    box.textContent = "";
    if (!on) return;
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
        btn.dataset.action = b.action || "switch";
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

  // The threat forecast in words: its head, a row a target, how exact; or, while there is none,
  // why. Each kept in a part of its own, hidden rather than cleared out of phase 4 and while
  // the other shows: an undo back brings the same one, shown again as it was.
  const fcParts = {}, fcShown = {};
  function fcPart(name) {
    if (!fcParts[name]) {
      fcParts[name] = document.createElement("div");
      fcParts[name].className = name;
      $("forecast").append(fcParts[name]);
    }
    return fcParts[name];
  }
  function forecast(fc) {
    if ($("fcsec").hidden !== !fc) $("fcsec").hidden = !fc;
    if (!fc) return;
    const name = fc.rows ? "fcres" : "fcwhy", box = fcPart(name), other = fcParts[fc.rows ? "fcwhy" : "fcres"];
    if (other && !other.hidden) other.hidden = true;
    if (box.hidden) box.hidden = false;
    const sig = JSON.stringify(fc.rows ? [fc.head, fc.rows, fc.how] : fc.lines);
    if (sig === fcShown[name]) return;
    fcShown[name] = sig;
    box.textContent = "";
    const p = (cls, text) => { const e = document.createElement("p"); e.className = cls; e.textContent = text; box.append(e); };
    if (!fc.rows) { for (const line of fc.lines || []) p("fcline", line); return; }
    p("fchead", fc.head);
    const table = document.createElement("table");
    for (const [label, value] of fc.rows) {
      const tr = document.createElement("tr"), th = document.createElement("th"), td = document.createElement("td");
      th.scope = "row"; th.textContent = label; td.textContent = value;
      tr.append(th, td);
      table.append(tr);
    }
    box.append(table);
    p("fchow", fc.how);
  }

  // A refused action: the device's sentence (its rule id in it) by the picture, for a few seconds.
  let toastText = "", toastTimer = null;
  const TOAST_MS = 5000;
  function toast(st) {
    const text = st.refused ? st.text : "";
    if (text === toastText) return;
    toastText = text;
    clearTimeout(toastTimer);
    setText($("toast"), text);
    $("toast").hidden = !text;
    if (text) toastTimer = setTimeout(() => { $("toast").hidden = true; }, TOAST_MS);
  }

  function damaged(d) {                               // a damaged save, shown until acknowledged
    if ($("damaged").hidden !== !d) $("damaged").hidden = !d;
    setText($("damagedtext"), d ? d.lost + "." + (d.kept ? " " + d.kept + "." : "") : "");
    const canAck = !!d && unlocked;
    if ($("ackdamaged").hidden !== !canAck) $("ackdamaged").hidden = !canAck;
  }

  // The device in this page's first screen (issue 63 item 3): the saved game to continue, or a
  // new one; once chosen, the picture.
  let started = false;
  // A new game of each of the device's other games beside Siege's (data-action="new", data-game).
  function firstScreen(s) {
    const st = s.state && s.state.game;
    if (!device || started || !catalog || !s.conn.live) return;
    const saved = !!st && s.seq > 0 && st.outcome === "playing";
    $("start").hidden = false;
    setText($("startgame"), saved ? s.game_name + ": turn " + st.turn + ", " + s.seq + " actions" : s.game_name);
    $("continue").hidden = false;
    setText($("continue"), saved ? catalog.in_page.continue : catalog.in_page.play);
    setText($("startnew"), catalog.in_page.new + ": " + catalog.games.siege.short + "…");
    const box = $("startnew").parentNode;
    if (!box.querySelector("[data-action='new']:not(#startnew)")) {
      for (const g of Object.keys(catalog.games)) {
        if (g === "siege") continue;
        box.append(button("new", catalog.in_page.new + ": " + catalog.games[g].short, () => {
          begin();
          send({ t: "new", game: g });
        }, { "data-game": g, title: catalog.games[g].name }));
      }
    }
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
    setText($("game"), innerWidth < 700 ? s.game_short : s.game_name);
    connLine(s.conn.live ? "ok" : s.conn.kind === "lost" ? "stale" : "bad", s.conn.text);
    if (s.conn.kind === "lost") banner("The board is unplugged or gone: this is the last board seen. It comes back by itself.");
    else if (!s.conn.live) banner("No board connected: " + s.conn.text);
    else banner("");
    firstScreen(s);
    picture(s);
    facts(s.facts);
    if ($("nowsec").hidden !== !s.facts.length) $("nowsec").hidden = !s.facts.length;
    events(s.events);
    if ($("evsec").hidden !== !s.events.length) $("evsec").hidden = !s.events.length;
    forecast(s.forecast);
    damaged(s.damaged);
    setText($("status"), s.status.text);
    setClass($("status"), s.status.refused ? "refused" : "");
    toast(s.status);
    keys(s);
    actionBar(s);
    clip();
    if (seqChanged) {                 // when this page first showed the device's latest action (make bench)
      document.body.dataset.seq = String(s.seq);
      document.body.dataset.seqAt = String(performance.timeOrigin + performance.now());
      document.body.dataset.hostAt = String(s.at || 0);
      document.body.dataset.applyMs = (performance.now() - t0).toFixed(2);
    }
  }

  // A TV (issue 62 item 3): everything on one screen, no scrolling; the oldest events that do
  // not fit are left out whole (none is cut). Elsewhere the page scrolls and lists them all.
  function clip() {
    const lis = $("events").children;
    for (const li of lis) if (li.hidden) li.hidden = false;
    if (innerWidth < 1200) return;
    const col = $("right");
    for (let i = lis.length - 1; i > 0 && col.scrollHeight > col.clientHeight; i--) lis[i].hidden = true;
  }

  let device = null;                 // the device in this page (device.js: the static site), instead of a host
  function send(obj) {
    if (device) device.send(obj);
    else if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }

  function onMessage(ev) {
    let m = ev.data;
    if (typeof m === "string") { try { m = JSON.parse(m); } catch (e) { return; } }
    if (m.t === "snap") apply(m);
    else if (m.t === "hello") {
      control = !!m.control;
      $("ctlsec").hidden = !control;
      if (m.unlocked) {                // the device in this page: the phone in the hand is the table's own
        unlocked = true;
        $("pinform").hidden = true;
      }
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
    if ($("device") && window.OsadaDevice) {       // no host: the page runs the device itself (issue 63)
      device = window.OsadaDevice.open(JSON.parse($("device").textContent), catalog, (m) => onMessage({ data: m }));
      return;
    }
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
  // A computer's keyboard (with the PIN): the game's keys as the monitor binds them (the host's
  // buttons' "press"). On Siege's picture a key that acts on an enemy or a wall takes the one
  // tapped (selected); the keys that move the monitor's cursor are the taps' here.
  document.addEventListener("keydown", (ev) => {
    if (!unlocked || !snap || !snap.control || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest("input, select, textarea, dialog")) return;
    const b = snap.buttons.find((x) => (x.press || []).includes(ev.key));
    if (!b) return;
    const target = catalog && b.by_tap ? catalog.touch[b.action] : undefined;
    if (b.by_tap && target === undefined) return;      // the cursor's keys: a tap picks here
    ev.preventDefault();
    if (!b.by_tap) { send(b.digits ? { t: "key", game: snap.game, i: b.i, n: +ev.key } : { t: "key", game: snap.game, i: b.i }); return; }
    if (target === "enemy" && selected && selected.enemy) send({ t: "act", game: "siege", do: b.action, enemy: selected.enemy });
    else if (target === "sector" && selected && selected.sector) send({ t: "act", game: "siege", do: b.action, sector: selected.sector });
    else if (target === null) send({ t: "act", game: "siege", do: b.action });
    else if (target) toast({ refused: true, text: b.label + ": tap " + (target === "enemy" ? "an enemy" : "a wall") + " first" });
  });
  $("ackdamaged").addEventListener("click", () => send({ t: "ack" }));
  $("newgame").addEventListener("click", newGameDialog);
  const begin = () => { started = true; $("start").hidden = true; };
  $("continue").addEventListener("click", begin);
  $("startnew").addEventListener("click", () => { begin(); newGameDialog(); });
  $("export").addEventListener("click", () => send({ t: "export" }));
  $("import").addEventListener("change", async () => {    // the game replaced by the file's (its journal)
    const f = $("import").files[0];
    if (f) send({ t: "import", data: new Uint8Array(await f.arrayBuffer()) });
  });
  $("newcancel").addEventListener("click", () => $("newdialog").close());
  $("newform").addEventListener("submit", () => {
    const mode = ($("newform").querySelector("input[name=modes]:checked") || {}).value || "standard";
    const variants = [...$("newform").querySelectorAll("input[name=variants]:checked")].map((i) => i.value);
    const st = snap && snap.state && snap.state.game;
    send({ t: "new", game: "siege", players: +$("players").value, mode: mode, variants: variants,
           replace: !!(st && snap.seq && st.outcome === "playing") });
  });
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
  window.addEventListener("resize", () => { shownPicture = ""; if (snap) picture(snap); clip(); });   // the text's size follows the room
  try { catalog = JSON.parse($("catalog").textContent); } catch (e) { catalog = null; }   // the facts it draws with
  const first = $("first");          // the snapshot the host had when it served the page: drawn at once
  if (first) { try { apply(JSON.parse(first.textContent)); } catch (e) { /* the WebSocket's comes next */ } }
  connect();
})();
