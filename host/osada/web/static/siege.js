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

  function token(e, kind, x, y, w, h, lit) {
    const g = el("g", { class: "token" + (kind.class === "special" ? " special" : "") + (e.held ? " held" : "") +
                               (lit ? " lit" : ""),
                        "data-enemy": e.id, "data-armor": e.armor, "data-kind": e.kind, tabindex: "0",
                        role: "img", "aria-label": kind.name + " #" + e.id + ", armour " + e.armor +
                        (e.held ? ", held by the hedgehog" : "") });
    g.append(el("title", {}, kind.name + " #" + e.id + " — armour " + e.armor + (e.held ? " (hedgehog)" : "")));
    g.append(el("rect", { x: x, y: y, width: w, height: h, rx: 8, class: "tok" }));
    if (e.held) g.append(el("rect", { x: x, y: y, width: w, height: h, rx: 8, class: "hatch" }));
    g.append(txt(x + w / 2, y + h * 0.34 + Math.max(17, FMIN) * 0.36, "tokname",
                 kind.short + (kind.class === "special" ? "★" : ""), 17, w - 8));
    const full = Math.max(kind.armor, e.armor), r = 4.5, step = 12;
    const x0 = x + w / 2 - (full - 1) * step / 2;
    for (let i = 0; i < full; i++) {
      g.append(el("circle", { cx: x0 + i * step, cy: y + h * 0.78, r: r, class: i < e.armor ? "pip on" : "pip" }));
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
    svg.dataset.per = String(per);
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    const before = seen(svg);
    svg.dataset.fmin = FMIN.toFixed(1);
    svg.textContent = "";
    svg.append(el("title", {}, "Siege, turn " + state.turn + ": the board"));
    const cands = new Set(((state.pending || {}).candidates) || []);
    const byCell = {};
    for (const e of state.enemies || []) (byCell[e.sector + "/" + e.line] = byCell[e.sector + "/" + e.line] || []).push(e);
    for (let s = 1; s <= 6; s++) {
      const sec = cat.sectors[String(s)], x = (s - 1) * COL;
      const col = el("g", { class: "sector", "data-sector": s });
      col.append(el("rect", { x: x + 1, y: 0, width: COL - 2, height: HEAD - 2, rx: 6, fill: sec.strong }));
      col.append(txt(x + COL / 2, HEAD / 2 - 3, "secnum", String(s), 20, COL - 8));
      col.append(txt(x + COL / 2, HEAD - 7, "secarmy", sec.army, 13, COL - 8));
      lines.forEach((line, i) => {
        const y = top[i], h = rowH[i], key = s + "/" + line;
        const cell = el("g", { class: "cell", "data-cell": key });
        cell.append(el("rect", { x: x + 1, y: y + 1, width: COL - 2, height: h - 2, fill: sec.tint, class: "cellbg" }));
        const es = (byCell[key] || []).sort((a, b) => a.id - b.id);
        es.forEach((e, k) => cell.append(token(e, cat.kinds[e.kind] || { name: e.kind, short: e.kind, armor: e.armor },
                                               ...place(x, y, k), tw, TOKEN_H, cands.has(e.id))));
        col.append(cell);
      });
      const wy = acc + GAP;
      const wall = (state.walls || []).includes(s), dot = (state.dots || []).includes(s);
      const wg = el("g", { class: "wall" + (wall ? " up" : " down"), "data-wall": wall ? "standing" : "gone",
                           "data-dot": dot ? "yes" : "no", "data-cell": s + "/wall" });
      wg.append(el("rect", { x: x + 4, y: wy, width: COL - 8, height: WALL - 4, rx: 3, class: "wallbar" }));
      wg.append(txt(x + COL / 2, wy + WALL / 2 + Math.max(14, FMIN) * 0.3, "walltext",
                    wall ? (dot ? "wall+ДОТ" : "wall") : "no wall", 14, COL - 12));
      if (risks && wall) risk(wg, risks[(dot ? "D" : "W") + s], x + 6, wy - 22, COL - 12);
      col.append(wg);
      const cy = wy + WALL + GAP, up = (state.buildings || []).includes(s);
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
      }
      if (!up) bg.append(txt(mx, cy + 52, "bldtext", "ruins", 13, COL - 12));
      if (risks && up) risk(bg, risks["B" + s], x + 6, cy + 40, COL - 12);
      (byCell[s + "/city"] || []).sort((a, b) => a.id - b.id).forEach((e, k) =>
        bg.append(token(e, cat.kinds[e.kind] || { name: e.kind, short: e.kind, armor: e.armor },
                        ...place(x, cy, k), tw, TOKEN_H, cands.has(e.id))));
      col.append(bg);
      svg.append(col);
    }
    if (before) animate(svg, before);
  }

  // What the last drawing showed: each token's place, each wall standing (null: nothing drawn yet).
  function seen(svg) {
    if (!svg.querySelector("[data-sector]") || svg.dataset.fmin !== FMIN.toFixed(1)) return null;   // (a new size: no motion)
    const out = { tokens: {}, walls: {} };
    for (const g of svg.querySelectorAll("[data-enemy]")) {
      const r = g.querySelector("rect");
      out.tokens[g.dataset.enemy] = [+r.getAttribute("x"), +r.getAttribute("y")];
    }
    for (const g of svg.querySelectorAll("[data-wall]")) out.walls[g.dataset.cell] = g.dataset.wall;
    return out;
  }

  // What changed since the last drawing, shown briefly (well under a second, the state drawn
  // throughout): a token that moved slides from where it was, one that came in (revealed,
  // placed) grows into its place, a wall that fell flashes; none with reduced motion asked.
  const MOVE_MS = 450, IN_MS = 400, FALL_MS = 600;
  function animate(svg, before) {
    if (!svg.animate || (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    for (const g of svg.querySelectorAll("[data-enemy]")) {
      const r = g.querySelector("rect"), was = before.tokens[g.dataset.enemy];
      const x = +r.getAttribute("x"), y = +r.getAttribute("y");
      if (was && (was[0] !== x || was[1] !== y)) {
        g.classList.add("moved");
        g.animate([{ transform: "translate(" + (was[0] - x) + "px," + (was[1] - y) + "px)" }, { transform: "none" }],
                  { duration: MOVE_MS, easing: "ease-out" });
      } else if (!was) {
        g.classList.add("arrived");
        g.animate([{ opacity: 0.15 }, { opacity: 1 }], { duration: IN_MS, easing: "ease-out" });
      }
    }
    for (const g of svg.querySelectorAll("[data-wall]")) {
      if (before.walls[g.dataset.cell] === "standing" && g.dataset.wall === "gone") {
        g.classList.add("fell");
        g.animate([{ opacity: 0.2 }, { opacity: 1 }, { opacity: 0.4 }, { opacity: 1 }], { duration: FALL_MS });
      }
    }
  }

  return { draw: draw };
})();
