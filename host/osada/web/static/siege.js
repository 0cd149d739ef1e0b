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
  // in the viewBox's units: 600 across, so a phone (about 366 CSS px) shows a unit as 0.61 px;
  // a token is TOKEN_H tall at least, 40 CSS px on that phone (a touch target), and a line
  // grows to hold the most tokens any of its cells has
  const COL = 100, HEAD = 44, ROW = 82, TOKEN_H = 66, WALL = 34, CITY = 70, GAP = 4;

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
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
    g.append(el("text", { x: x + w / 2, y: y + h * 0.46, class: "tokname" },
                kind.short + (kind.class === "special" ? "★" : "")));
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
    g.append(el("rect", { x: x, y: y, width: w, height: 20, rx: 4, class: "risk " + r.level }));
    g.append(el("text", { x: x + w / 2, y: y + 15, class: "risktext", "data-risk": r.text }, r.text));
  }

  // Draw `state` (the device's Siege state as the role sees it) into the <svg> `svg`;
  // risks: the forecast's, or null.
  function draw(svg, state, cat, risks) {
    NS = svg.namespaceURI;
    const lines = cat.lines.filter((l) => l !== "city");
    const most = {};
    for (const e of state.enemies || []) {
      const k = e.sector + "/" + e.line;
      most[k] = (most[k] || 0) + 1;
    }
    const rowH = lines.map((line) => {
      let n = 0;
      for (let s = 1; s <= 6; s++) n = Math.max(n, most[s + "/" + line] || 0);
      return Math.max(ROW, n * (TOKEN_H + 4) + 10);
    });
    const top = [];
    let acc = HEAD;
    for (const h of rowH) { top.push(acc); acc += h; }
    let inCity = 0;                                   // enemies that broke into the city stand there
    for (let s = 1; s <= 6; s++) inCity = Math.max(inCity, most[s + "/city"] || 0);
    const cityH = Math.max(CITY, inCity * (TOKEN_H + 4) + 10);
    const H = acc + WALL + cityH + GAP * 2;
    const W = COL * 6;
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.textContent = "";
    svg.append(el("title", {}, "Siege, turn " + state.turn + ": the board"));
    const cands = new Set(((state.pending || {}).candidates) || []);
    const byCell = {};
    for (const e of state.enemies || []) (byCell[e.sector + "/" + e.line] = byCell[e.sector + "/" + e.line] || []).push(e);
    for (let s = 1; s <= 6; s++) {
      const sec = cat.sectors[String(s)], x = (s - 1) * COL;
      const col = el("g", { class: "sector", "data-sector": s });
      col.append(el("rect", { x: x + 1, y: 0, width: COL - 2, height: HEAD - 2, rx: 6, fill: sec.strong }));
      col.append(el("text", { x: x + COL / 2, y: 20, class: "secnum" }, String(s)));
      col.append(el("text", { x: x + COL / 2, y: 37, class: "secarmy" }, sec.army));
      lines.forEach((line, i) => {
        const y = top[i], h = rowH[i], key = s + "/" + line;
        const cell = el("g", { class: "cell", "data-cell": key });
        cell.append(el("rect", { x: x + 1, y: y + 1, width: COL - 2, height: h - 2, fill: sec.tint, class: "cellbg" }));
        const es = (byCell[key] || []).sort((a, b) => a.id - b.id);
        es.forEach((e, k) => cell.append(token(e, cat.kinds[e.kind] || { name: e.kind, short: e.kind, armor: e.armor },
                                               x + 6, y + 5 + k * (TOKEN_H + 4), COL - 12, TOKEN_H, cands.has(e.id))));
        col.append(cell);
      });
      const wy = acc + GAP;
      const wall = (state.walls || []).includes(s), dot = (state.dots || []).includes(s);
      const wg = el("g", { class: "wall" + (wall ? " up" : " down"), "data-wall": wall ? "standing" : "gone",
                           "data-dot": dot ? "yes" : "no", "data-cell": s + "/wall" });
      wg.append(el("rect", { x: x + 4, y: wy, width: COL - 8, height: WALL - 4, rx: 3, class: "wallbar" }));
      wg.append(el("text", { x: x + COL / 2, y: wy + WALL / 2 + 3, class: "walltext" },
                   wall ? (dot ? "wall + ДОТ" : "wall") : "no wall"));
      if (risks && wall) risk(wg, risks[(dot ? "D" : "W") + s], x + 14, wy - 22, COL - 28);
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
      bg.append(el("text", { x: mx, y: cy + 52, class: "bldtext" }, up ? "" : "ruins"));
      if (risks && up) risk(bg, risks["B" + s], x + 14, cy + 40, COL - 28);
      (byCell[s + "/city"] || []).sort((a, b) => a.id - b.id).forEach((e, k) =>
        bg.append(token(e, cat.kinds[e.kind] || { name: e.kind, short: e.kind, armor: e.armor },
                        x + 6, cy + 5 + k * (TOKEN_H + 4), COL - 12, TOKEN_H, cands.has(e.id))));
      col.append(bg);
      svg.append(col);
    }
  }

  return { draw: draw };
})();
