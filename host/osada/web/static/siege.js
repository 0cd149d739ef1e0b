// Siege as a picture (issue 62 item 2): the board drawn in SVG from the game's state,
// as the page gets it for its role (the snapshot's "state"), with the facts of the
// catalog (/catalog.json: lines, sectors' colours and armies, the kinds' names, from
// their one home in Python). Six sectors side by side, each its colour and its number
// and army (a second cue than colour); the lines from the rear down to the city; the
// wall, ДОТ and building of each sector; each enemy a token with its short printed name
// and its armour as pips, special enemies starred, the hedgehog's enemy hatched; the
// pending choice's candidates lit. Hooks for tests and tools: data-cell="<sector>/<line>",
// data-enemy, data-armor, data-kind, data-wall, data-dot, data-building.
"use strict";
window.OsadaSiege = (function () {
  let NS = null;                     // the SVG namespace: the page's own <svg>'s (no URL written here)
  // in the viewBox's units: 600 across a token a row (COLS[1] a sector), so a phone (about 366
  // CSS px) shows a unit as 0.61 px; a token is TOKEN_H tall at least, 40 CSS px on that phone
  // (a touch target), and a line grows to hold the most tokens any of its cells has
  const COLS = { 1: 100, 2: 125 }, HEAD0 = 44, ROW = 82, TOKEN_H = 66, WALL0 = 34, CITY = 70, GAP = 4;

  let FMIN = 0;                      // the smallest font size, in the viewBox's units, that reads on this screen

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // a text of `size` units (FMIN at least) in a room `fit` units wide (the page narrows it to fit: data-fit)
  function txt(x, y, cls, text, size, fit, extra) {
    const attrs = { x: x, y: y, class: cls, style: "font-size:" + Math.max(size, FMIN).toFixed(1) + "px", "data-fit": fit };
    for (const k in extra || {}) attrs[k] = extra[k];
    return el("text", attrs, text);
  }

  // a token drawn at its own origin (0, 0); draw() places it with its group's transform
  function token(e, kind, w, h, lit) {
    const g = el("g", { class: "token" + (kind.class === "special" ? " special" : "") + (e.held ? " held" : "") +
                               (lit ? " lit" : ""),
                        "data-enemy": e.id, "data-armor": e.armor, "data-kind": e.kind, tabindex: "0",
                        role: "img", "aria-label": kind.name + " #" + e.id + ", armour " + e.armor +
                        (e.held ? ", held by the hedgehog" : "") });
    g.append(el("title", {}, kind.name + " #" + e.id + " — armour " + e.armor + (e.held ? " (hedgehog)" : "")));
    g.append(el("rect", { x: 0, y: 0, width: w, height: h, rx: 8, class: "tok" }));
    if (e.held) g.append(el("rect", { x: 0, y: 0, width: w, height: h, rx: 8, class: "hatch" }));
    g.append(txt(w / 2, h * 0.34 + Math.max(17, FMIN) * 0.36, "tokname",
                 kind.short + (kind.class === "special" ? "★" : ""), 17, w - 8));
    const full = Math.max(kind.armor, e.armor), r = 4.5, step = 12;
    const x0 = w / 2 - (full - 1) * step / 2;
    for (let i = 0; i < full; i++) {
      g.append(el("circle", { cx: x0 + i * step, cy: h * 0.78, r: r, class: i < e.armor ? "pip on" : "pip" }));
    }
    return g;
  }

  // The forecast's risk on a building, wall or ДОТ (the snapshot's forecast.risks): its
  // percentage on it, in F13's colour band (a border: the text says it too).
  function risk(g, r, x, y, w) {
    if (!r) return;
    const hgt = Math.max(14, FMIN) + 6;
    g.append(el("rect", { x: x, y: y - hgt + 20, width: w, height: hgt, rx: 4, class: "risk " + r.level }));
    g.append(txt(x + w / 2, y + 17, "risktext", r.text, 14, w - 6, { "data-risk": r.text }));
  }

  // The board's rows for `state` with `per` tokens side by side in a cell (the sizes, in units).
  function measure(state, cat, per) {
    const HEAD = Math.max(HEAD0, 2 * FMIN + 10), WALL = Math.max(WALL0, FMIN + 12);
    const lines = cat.lines.filter((l) => l !== "city");
    const most = {};
    for (const e of state.enemies || []) {
      const k = e.sector + "/" + e.line;
      most[k] = (most[k] || 0) + 1;
    }
    const rows = (n) => Math.ceil(n / per);
    const rowH = lines.map((line) => {
      let n = 0;
      for (let s = 1; s <= 6; s++) n = Math.max(n, most[s + "/" + line] || 0);
      return Math.max(ROW, rows(n) * (TOKEN_H + 4) + 10);
    });
    const top = [];
    let acc = HEAD;
    for (const h of rowH) { top.push(acc); acc += h; }
    let inCity = 0;                                   // enemies that broke into the city stand there
    for (let s = 1; s <= 6; s++) inCity = Math.max(inCity, most[s + "/city"] || 0);
    const cityH = Math.max(CITY, rows(inCity) * (TOKEN_H + 4) + 10);
    return { HEAD, WALL, lines, rowH, top, acc, cityH, H: acc + WALL + cityH + GAP * 2, W: COLS[per] * 6 };
  }

  // One layout per screen class (issue 62 item 3), chosen for the room the picture has (CSS px;
  // height Infinity where the page scrolls): a token a row in each cell (a phone, a tablet: the
  // board the width, tokens big enough to tap), or two side by side where the room is wider
  // than the board is tall (a TV, a laptop: the board as large as the screen allows). The
  // smallest text is minPx CSS px tall on screen: FMIN, in the chosen layout's units.
  function choose(state, cat, room) {
    let best = null;
    for (const per of [1, 2]) {
      FMIN = room.width ? room.minPx * COLS[per] * 6 / room.width : 0;
      const m = measure(state, cat, per);
      const k = Math.min(room.width / m.W, room.height / m.H);
      const area = k > 0 ? k * m.W * k * m.H : 0;                 // (no room measured yet: the first layout)
      if (!best || area > best.area * 1.05) best = { per, area, fmin: k > 0 ? Math.max(FMIN, room.minPx / k) : 0 };
    }
    return best;
  }

  // What the last drawing left for the next (one picture a page): its <svg>, its layout's
  // signature, each sector's group, cells, wall and building with their signatures, and each
  // token's element, signature and place (where the next drawing's motion starts from). A change redraws only what it changed and moves
  // the tokens that stay: twenty pages rebuilding the whole board on every change were most
  // of a change's time (make bench's web_latency_ms).
  let kept = null;

  // Draw `state` (the device's Siege state as the role sees it) into the <svg> `svg`;
  // risks: the forecast's, or null; room: {width, height, minPx} (choose()).
  function draw(svg, state, cat, risks, room) {
    NS = svg.namespaceURI;
    const pick = choose(state, cat, room || { width: 0, height: Infinity, minPx: 0 });
    const per = pick.per;
    FMIN = pick.fmin || 0;
    const COL = COLS[per];
    const { HEAD, WALL, lines, rowH, top, acc, cityH, H, W } = measure(state, cat, per);
    const tw = (COL - 12 - (per - 1) * 4) / per;
    const place = (x, y, k) => [x + 6 + (k % per) * (tw + 4), y + 5 + Math.floor(k / per) * (TOKEN_H + 4)];
    const fmin = FMIN.toFixed(1), geo = [per, fmin, rowH.join(","), cityH].join("|");
    const before = kept && kept.svg === svg && kept.fmin === fmin ? kept : null;    // (a new size: no motion)
    if (!kept || kept.svg !== svg || kept.geo !== geo || kept.title.parentNode !== svg) {
      kept = frame(svg, cat, { HEAD, lines, rowH, top, W, H, COL });
    }
    const k = kept;
    k.fmin = fmin;
    k.geo = geo;
    setText(k.title, "Siege, turn " + state.turn + ": the board");
    const cands = new Set(((state.pending || {}).candidates) || []);
    const byCell = {};
    for (const e of state.enemies || []) (byCell[e.sector + "/" + e.line] = byCell[e.sector + "/" + e.line] || []).push(e);
    const fell = [];
    for (let s = 1; s <= 6; s++) {
      const x = (s - 1) * COL, wy = acc + GAP, cy = wy + WALL + GAP;
      const wall = (state.walls || []).includes(s), dot = (state.dots || []).includes(s);
      const wr = risks && wall ? risks[(dot ? "D" : "W") + s] : null;
      const wsig = [wall, dot, wr ? wr.level + wr.text : ""].join("|");
      if (k.wallSig[s] !== wsig) {
        const wg = made(k, "w" + s + "|" + wsig, () => wallGroup(s, x, wy, COL, WALL, wall, dot, wr));
        if (k.walls[s]) k.cols[s].replaceChild(wg, k.walls[s]); else k.cols[s].insertBefore(wg, k.blds[s]);
        k.walls[s] = wg;
        k.wallSig[s] = wsig;
        if (before && before.up[s] && !wall) fell.push(wg);
      }
      k.up[s] = wall;
      const up = (state.buildings || []).includes(s);
      const br = risks && up ? risks["B" + s] : null;
      const bsig = [up, br ? br.level + br.text : ""].join("|");
      if (k.bldSig[s] !== bsig) {
        const bg = made(k, "b" + s + "|" + bsig, () => building(s, x, cy, COL, up, br));
        for (const t of bg.querySelectorAll("[data-enemy]")) t.remove();       // (none left from before)
        if (k.blds[s]) k.cols[s].replaceChild(bg, k.blds[s]); else k.cols[s].append(bg);
        k.blds[s] = bg;
        k.bldSig[s] = bsig;
        k.boxes[s + "/city"] = bg;
        k.order[s + "/city"] = "";                         // (its tokens go into the new group)
      }
    }
    // the tokens: each one that stays is kept and moved to its place, the others made anew
    const used = new Map();
    for (let s = 1; s <= 6; s++) {
      const x = (s - 1) * COL;
      const rows = lines.map((line, i) => [line, top[i]]).concat([["city", acc + GAP + WALL + GAP]]);
      for (const [line, y] of rows) {
        const key = s + "/" + line, box = k.boxes[key];
        const es = (byCell[key] || []).sort((a, b) => a.id - b.id);
        const gs = es.map((e, n) => {
          const kind = cat.kinds[e.kind] || { name: e.kind, short: e.kind, armor: e.armor };
          const lit = cands.has(e.id), sig = [e.kind, e.armor, e.held ? 1 : 0, lit ? 1 : 0].join();
          const was = k.tokens.get(e.id);
          const g = was && was.sig === sig ? was.g : token(e, kind, tw, TOKEN_H, lit);
          const [px, py] = place(x, y, n);
          const tr = "translate(" + px + " " + py + ")";
          if (g.getAttribute("transform") !== tr) g.setAttribute("transform", tr);
          used.set(e.id, { g, sig, x: px, y: py });
          return g;
        });
        const order = gs.map((g) => g.dataset.enemy + (g.parentNode === box ? "" : "+")).join();
        if (k.order[key] !== order) {
          for (const g of gs) box.append(g);
          k.order[key] = gs.map((g) => g.dataset.enemy).join();
        }
      }
    }
    for (const [id, t] of k.tokens) if (!used.has(id) || used.get(id).g !== t.g) t.g.remove();
    const was = before ? before.tokens : null;       // (where each token was: the last drawing's)
    k.tokens = used;
    if (was) animate(used, was, fell);
  }

  const setText = (e, text) => { if (e.textContent !== text) e.textContent = text; };

  // A wall's or a building's group for its signature, the one made before if there is one: the
  // forecast's risks come in phase 4 and go after it, and back again with an undo.
  function made(k, sig, make) {
    let g = k.made.get(sig);
    if (!g) {
      if (k.made.size > 48) k.made.clear();
      g = make();
      k.made.set(sig, g);
    }
    return g;
  }

  // The board's frame for one layout: the sectors' heads and cells, with no wall, building or
  // token yet (draw() adds them); what draw() keeps of it.
  function frame(svg, cat, f) {
    svg.dataset.per = String(f.COL === COLS[2] ? 2 : 1);
    svg.setAttribute("viewBox", "0 0 " + f.W + " " + f.H);
    svg.dataset.fmin = FMIN.toFixed(1);
    svg.textContent = "";
    const k = { svg, title: el("title", {}), cols: {}, boxes: {}, walls: {}, blds: {}, wallSig: {}, bldSig: {},
                order: {}, up: {}, tokens: new Map(), made: new Map() };
    svg.append(k.title);
    for (let s = 1; s <= 6; s++) {
      const sec = cat.sectors[String(s)], x = (s - 1) * f.COL;
      const col = el("g", { class: "sector", "data-sector": s });
      col.append(el("rect", { x: x + 1, y: 0, width: f.COL - 2, height: f.HEAD - 2, rx: 6, fill: sec.strong }));
      col.append(txt(x + f.COL / 2, f.HEAD / 2 - 3, "secnum", String(s), 20, f.COL - 8));
      col.append(txt(x + f.COL / 2, f.HEAD - 7, "secarmy", sec.army, 13, f.COL - 8));
      f.lines.forEach((line, i) => {
        const cell = el("g", { class: "cell", "data-cell": s + "/" + line });
        cell.append(el("rect", { x: x + 1, y: f.top[i] + 1, width: f.COL - 2, height: f.rowH[i] - 2, fill: sec.tint,
                                 class: "cellbg" }));
        col.append(cell);
        k.boxes[s + "/" + line] = cell;
      });
      k.cols[s] = col;
      svg.append(col);
    }
    return k;
  }

  function wallGroup(s, x, wy, COL, WALL, wall, dot, r) {
    const wg = el("g", { class: "wall" + (wall ? " up" : " down"), "data-wall": wall ? "standing" : "gone",
                         "data-dot": dot ? "yes" : "no", "data-cell": s + "/wall" });
    wg.append(el("rect", { x: x + 4, y: wy, width: COL - 8, height: WALL - 4, rx: 3, class: "wallbar" }));
    wg.append(txt(x + COL / 2, wy + WALL / 2 + Math.max(14, FMIN) * 0.3, "walltext",
                  wall ? (dot ? "wall+ДОТ" : "wall") : "no wall", 14, COL - 12));
    if (r) risk(wg, r, x + 6, wy - 22, COL - 12);
    return wg;
  }

  function building(s, x, cy, COL, up, r) {
    const bg = el("g", { class: "building" + (up ? " up" : " down"), "data-building": up ? "standing" : "ruins",
                         "data-cell": s + "/city" });
    const mx = x + COL / 2;
    if (up) {
      bg.append(el("path", { d: "M" + (mx - 30) + " " + (cy + 30) + " L" + mx + " " + (cy + 8) + " L" + (mx + 30) + " " +
                                (cy + 30) + " V" + (cy + 60) + " H" + (mx - 30) + " Z", class: "house" }));
    } else {
      bg.append(el("path", { d: "M" + (mx - 30) + " " + (cy + 60) + " L" + (mx - 18) + " " + (cy + 38) + " L" + (mx - 4) +
                                " " + (cy + 50) + " L" + (mx + 12) + " " + (cy + 34) + " L" + (mx + 30) + " " + (cy + 60) +
                                " Z", class: "ruins" }));
      bg.append(txt(mx, cy + 52, "bldtext", "ruins", 13, COL - 12));
    }
    if (r) risk(bg, r, x + 6, cy + 40, COL - 12);
    return bg;
  }

  // What changed since the last drawing, shown briefly (well under a second, the state drawn
  // throughout): a token that moved slides from where it was, one that came in (revealed,
  // placed) grows into its place, a wall that fell flashes; none with reduced motion asked.
  const MOVE_MS = 450, IN_MS = 400, FALL_MS = 600;
  function animate(tokens, was, fell) {
    if (!document.body.animate || (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    for (const [id, t] of tokens) {
      const g = t.g, from = was.get(id);
      if (from && (from.x !== t.x || from.y !== t.y)) {
        for (const a of g.getAnimations()) a.cancel();
        g.classList.remove("arrived");
        g.classList.add("moved");
        g.animate([{ transform: "translate(" + from.x + "px," + from.y + "px)" },
                   { transform: "translate(" + t.x + "px," + t.y + "px)" }], { duration: MOVE_MS, easing: "ease-out" });
      } else if (!from) {
        g.classList.add("arrived");
        g.animate([{ opacity: 0.15 }, { opacity: 1 }], { duration: IN_MS, easing: "ease-out" });
      }
    }
    for (const g of fell) {
      g.classList.add("fell");
      g.animate([{ opacity: 0.2 }, { opacity: 1 }, { opacity: 0.4 }, { opacity: 1 }], { duration: FALL_MS });
    }
  }

  return { draw: draw };
})();
