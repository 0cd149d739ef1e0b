// The device in the page (issue 63): with no host, the page runs the firmware's own app in
// MicroPython's WebAssembly VM in a Web Worker (the static site's worker.js) and speaks the
// device's JSON-line protocol to it as a host does over USB. This link gives app.js what a
// host's WebSocket gives it: a hello, a snapshot after every change (the same per-role data:
// the device's state as the table may see it), the replies; it turns the page's frames (a
// tap's action, the turn's keys, a new game) into the device's requests. A reply comes out
// of the worker only once the journal that holds what it acknowledges is in the browser's
// storage: closing the tab loses no acknowledged action.
"use strict";
window.OsadaDevice = (function () {
  function open(cfg, catalog, deliver) {
    const worker = new Worker(cfg.worker, { type: "module" });
    let id = 0, rev = 0, seq = 0, setup = null, game = "siege", live = false, ring = [];
    let status = { text: "starting the device in this page…", refused: false }, damaged = null, ready = false;
    // the device's words and picture (the worker's osada.site.reader), and the state the page draws:
    // the table's, as the reader gives it (shared_rules' table_state: the field marshal's hand is his
    // alone, a count here as on every page but his; on a shared phone there is no page of his)
    let facts = [], events = [], drawn = null, seen = null;
    const waiting = {}, early = [];
    const keyOf = (action) => catalog.games.siege.keys.find((k) => k.action === action);
    // the turn's own keys on the picture's bar (their names and keys from the catalog)
    const BUTTONS = ["end_turn", "undo"].map((action, i) => {
      const k = keyOf(action);
      return { i: i, label: k.name, action: action, what: k.what, keys: k.keys, press: [k.keys.split(" ")[0]],
               by_tap: false };
    });

    // another game (not Siege): the device's own knob and buttons (the catalog's words), then a
    // switch to each other game; Siege has its turn's keys and the same switches
    const CONTROLS = catalog.in_page.controls.map(([action, press, label, what], i) =>
      ({ i: i, label: label, action: action, what: what, keys: "", press: [], by_tap: false, hal: press }));
    const switches = (from) => Object.keys(catalog.games).filter((g) => g !== from).map((g) =>
      ({ label: catalog.in_page.switch + " " + catalog.games[g].short, action: "switch", game: g, what: catalog.games[g].name,
         keys: "", press: [], by_tap: false }));
    const buttons = () => (game === "siege" ? BUTTONS : CONTROLS).concat(switches(game))
      .map((b, i) => Object.assign({}, b, { i: i }));

    function request(cmd, fields) {
      id++;
      waiting[id] = cmd;
      const line = JSON.stringify(Object.assign({ cmd: cmd, id: id }, fields || {})) + "\n";
      if (ready) worker.postMessage({ t: "in", text: line }); else early.push(line);
    }

    function publish() {
      rev++;
      const g = catalog.games[game] || { name: game, short: game };
      deliver({
        t: "snap", rev: rev, seq: seq, game: game, game_name: g.name, game_short: g.short,
        conn: { kind: live ? "connected" : "starting", live: live, text: catalog.in_page.conn }, stale: false,
        facts: facts, events: events, status: status, damaged: damaged, role: "player",
        forecast: game === "siege" && seen ? { lines: [catalog.in_page.forecast], risks: null } : null,
        state: game === "siege" && seen ? { game: seen, setup: setup } : null,
        // another game: its picture as the host draws it (the reader's), its ring the device's own LEDs
        picture: game === "siege" ? null : Object.assign({ game: game, words: [] }, drawn && drawn.game === game ? drawn : {},
                                                         { device: catalog.in_page.on_device, ring: ring }),
        control: true, buttons: buttons(),
      });
    }

    // the game the device runs; the worker sends the LEDs only while the page draws the ring
    function running(g) {
      if (g !== game || !live) worker.postMessage({ t: "rings", on: g !== "siege" });
      game = g;
    }

    function take(msg) {
      if (msg.ev === "state") { seq = msg.seq; publish(); return; }       // (its state: the reader's, seen)
      if (msg.ev === "setup") { setup = { players: msg.players, mode: msg.mode, variants: msg.variants || [] }; return; }
      if (msg.ev === "game") { running(msg.game); publish(); request("state"); return; }   // (its numbers, its toss…)
      if (msg.ev) return;                                  // the other events: their words come with them
      const cmd = waiting[msg.id];
      delete waiting[msg.id];
      if (cmd === "state" && msg.ok && msg.state) seq = msg.seq;
      if (cmd === "hello" && msg.ok) {
        running(msg.game);
        live = true;
        if (msg.journal === "damaged") damaged = { lost: msg.lost || "the saved game was damaged", kept: "" };
      }
      if (msg.ok) status = { text: "", refused: false };
      else status = { text: (msg.rule ? msg.rule + ": " : "") + (msg.error || "refused"), refused: true };
      if (cmd !== "hello" && cmd !== "state") deliver({ t: "reply", ok: !!msg.ok, text: msg.ok ? "done" : status.text });
      publish();
      // an undo past what the table saw come out (R30) is taken back only when confirmed, as the
      // monitor asks: here the phone's own question
      if (cmd === "undo" && !msg.ok && msg.rule === "R30" && window.confirm(status.text + "\n\nUndo it all the same?"))
        request("undo", { confirm: true });
    }

    const PRESSED_MS = 40;                             // a press's state asked for a few device steps later
    const RING_MS = 50;                                // a ring's changes drawn at most 20 times a second
    let ringTimer = null;
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.t === "out") {
        if (m.said) {
          const said = JSON.parse(m.said);
          events = said.events;
          facts = said.facts;
          drawn = said.picture || null;
          if (said.state) seen = said.state;
        }
        for (const line of m.text.split("\n")) {
          if (!line.trim()) continue;
          let msg;
          try { msg = JSON.parse(line); } catch (err) { continue; }
          take(msg);
        }
        if (m.said) publish();                         // (an event alone, a roll: its words)
      } else if (m.t === "ring") {                     // the LEDs changed: another game's picture is its ring
        ring = m.colours;
        if (game !== "siege" && !ringTimer) ringTimer = setTimeout(() => { ringTimer = null; publish(); }, RING_MS);
      } else if (m.t === "ready") {
        ready = true;
        for (const line of early.splice(0)) worker.postMessage({ t: "in", text: line });
      } else if (m.t === "file") {                     // the game's journal, to keep or to take to a board
        if (!m.data) { deliver({ t: "reply", ok: false, text: "no game to export yet" }); return; }
        const a = document.createElement("a");
        a.href = URL.createObjectURL(new Blob([m.data], { type: "application/octet-stream" }));
        a.download = "osada-siege-" + new Date().toISOString().slice(0, 16).replace(/[:T]/g, "-") + "-" + m.name;
        document.body.append(a);
        a.click();
        a.remove();
        deliver({ t: "reply", ok: true, text: "exported: " + a.download });
      } else if (m.t === "imported") {
        location.reload();                             // the device boots from the imported journal
      } else if (m.t === "error") {
        status = { text: "the device in this page stopped: " + m.text, refused: true };
        live = false;
        publish();
      }
    };

    // the page's buttons by name, for the facts' words ("“end turn” ends the turn")
    worker.postMessage({ t: "names", names: Object.fromEntries(catalog.games.siege.keys.map((k) => [k.action, k.name])) });
    deliver({ t: "hello", control: true, unlocked: true });
    publish();
    request("hello");
    request("state");
    if ("serviceWorker" in navigator && cfg.offline) navigator.serviceWorker.register(cfg.offline).catch(() => {});

    function send(frame) {
      if (frame.t === "act") {
        const action = Object.assign({}, frame);
        delete action.t; delete action.game;
        request("act", { action: action });
      } else if (frame.t === "key") {
        const b = buttons()[frame.i];
        if (!b) return;
        if (b.action === "switch") request("game", { game: b.game });
        else if (b.hal) {                                  // a button: then what it changed (the test's numbers…)
          worker.postMessage({ t: "press", what: b.hal });
          setTimeout(() => request("state"), PRESSED_MS);
        }
        else if (b.action === "undo") request("undo");
        else request("act", { action: { do: b.action } });
      } else if (frame.t === "new" && frame.game && frame.game !== "siege") {
        request("game", { game: frame.game });               // another game: the device starts it
      } else if (frame.t === "new") {
        if (game !== "siege") request("game", { game: "siege" });
        request("new", { players: frame.players, mode: frame.mode, variants: frame.variants });
      } else if (frame.t === "export") {
        worker.postMessage({ t: "export" });
      } else if (frame.t === "import") {
        worker.postMessage({ t: "import", data: frame.data });
      } else if (frame.t === "ack") {
        request("journal", { ack: true });
        damaged = null;
      }
    }
    return { send: send };
  }

  return { open: open };
})();
