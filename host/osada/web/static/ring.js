// The device's other games as pictures (issue 62 item 2), drawn from the data the host
// sends (the snapshot's "picture", made by each game's picture.py): the ring as the
// device lights it (24 LEDs, six sectors of four, sector 1 first as the ring runs),
// and what the game is about, large: Tank battle's dice (each face, what it counts
// for), what came out and the exact odds of it; Victory Day's toss (each seat, who
// starts); War Chest's round tracker (each player's coins in hand, markers to place,
// the initiative, whose action). Every word is the host's; none is typed here twice.
// Hooks for tests and tools: data-led, data-die, data-face, data-mark, data-seat,
// data-player, data-chance.
"use strict";
window.OsadaRing = (function () {
  let NS = null;
  const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
                 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function h(tag, cls, text, attrs) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  // the ring: 24 LEDs on a circle, a gap between sectors, each sector's number outside it
  const W = 300;                     // the ring's viewBox: W units square
  let FMIN = 0;                      // the smallest font size, in those units, that reads on this screen
  const font = (size) => "font-size:" + Math.max(size, FMIN).toFixed(1) + "px";

  function ring(svg, colours, letters) {
    const C = 150, R = 112;
    svg.setAttribute("viewBox", "0 0 " + W + " " + W);
    svg.textContent = "";
    svg.append(el("title", {}, "the ring as the device lights it"));
    svg.append(el("circle", { cx: C, cy: C, r: R + 22, class: "ringbase" }));
    for (let p = 0; p < 24; p++) {
      const s = Math.floor(p / 4), k = p % 4;
      const a = (-90 + s * 60 + 6 + k * 16) * Math.PI / 180;   // clockwise from the top
      const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
      const c = (colours || [])[p] || "#000000";
      const dark = c === "#000000";
      const g = el("g", { "data-led": p, "data-colour": c });
      g.append(el("circle", { cx: x, cy: y, r: 12, class: dark ? "led off" : "led", fill: dark ? "none" : c }));
      if (letters && letters[p]) g.append(el("text", { x: x, y: y + 6, class: "ledletter", style: font(15), "data-fit": 22 },
                                             letters[p]));
      svg.append(g);
    }
    for (let s = 0; s < 6; s++) {
      const a = (-90 + s * 60 + 30) * Math.PI / 180;
      svg.append(el("text", { x: C + (R - 44) * Math.cos(a), y: C + (R - 44) * Math.sin(a) + 9, class: "ringsec",
                              style: font(26), "data-fit": 40 }, String(s + 1)));
    }
  }

  function die(d, i) {
    const svg = el("svg", { viewBox: "0 0 40 40", class: "die " + d.mark, "data-die": i, "data-face": d.face,
                            "data-mark": d.mark, role: "img", "aria-label": "a " + d.face + ": " + d.mark });
    svg.append(el("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, class: "face" }));
    for (const [cx, cy] of PIPS[d.face] || []) svg.append(el("circle", { cx: cx * 10, cy: cy * 10, r: 3.6, class: "dpip" }));
    return svg;
  }

  function tank(box, pic) {
    const r = pic.roll;
    if (pic.now) box.append(h("p", "odds now", pic.now));     // the device in the page: its test and numbers
    if (!r) { box.append(h("p", "big", pic.words)); return; }
    const row = h("div", "dice");
    r.dice.forEach((d, i) => {
      const cell = h("figure", "diecell");
      cell.append(die(d, i));
      cell.append(h("figcaption", "", d.mark === "hit" ? "✓ hit" : d.mark === "miss" ? "✗ miss" : d.mark === "die" ? "" : d.mark));
      row.append(cell);
    });
    box.append(h("p", "big result", r.result));
    box.append(row);
    if (r.chance) {
      const p = h("p", "chance", "", { "data-chance": r.chance.p });
      p.append(h("b", "", r.chance.text), document.createTextNode(" — " + r.chance.what));
      const short = r.chance.p.split("/").every((n) => n.length <= 6);
      if (short) p.append(h("span", "frac", " (" + r.chance.p + ")"));
      box.append(p);
    }
    box.append(h("p", "odds", r.odds));
    box.append(h("p", "words", r.words));
  }

  function setting(box, st) {                          // the test and numbers the roll key sends (a PIN holder's)
    if (!st) return;
    const dl = h("dl", "setting");
    const add = (label, value, marked) => {
      dl.append(h("dt", marked ? "marked" : "", (marked ? "▶ " : "") + label), h("dd", marked ? "marked" : "", value));
    };
    add("test", st.test, st.marked);
    for (const [label, value, marked] of st.rows) add(label, value, marked);
    box.append(dl);
  }

  function victory(box, pic) {
    const seats = h("div", "seats");
    for (const s of pic.seats || []) {
      const card = h("div", "seat" + (s.starts ? " starts" : ""), "", { "data-seat": s.seat, "data-faction": s.faction });
      card.append(h("b", "", "Seat " + s.seat), h("span", "", s.faction), h("small", "", s.half));
      if (s.starts) card.append(h("em", "", "▶ starts"));
      seats.append(card);
    }
    if (seats.children.length) box.append(seats);
    const [first, ...rest] = pic.words || [];
    box.append(h("p", "big", first || ""));
    if (pic.lot) box.append(h("p", "chance", "the lot: " + pic.lot.text + " (" + pic.lot.p + ") for each seat",
                              { "data-chance": pic.lot.p }));
    for (const line of rest) box.append(h("p", "words", line));
  }

  function warchest(box, pic) {
    if (pic.round) box.append(h("p", "big", "Round " + pic.round));
    const row = h("div", "players");
    for (const p of pic.players || []) {
      const card = h("div", "player " + p.colour + (p.turn ? " turn" : "") + (p.won ? " won" : ""), "",
                     { "data-player": p.player, "data-hand": p.hand, "data-markers": p.markers });
      card.append(h("b", "", "Player " + p.player + " (" + p.colour + ")"));
      card.append(h("span", "coins", "●".repeat(p.hand) + "○".repeat(Math.max(0, p.hand_size - p.hand)) +
                    " " + p.hand + " of " + p.hand_size + " coins in hand"));
      card.append(h("span", "", p.markers + " of " + p.markers_all + " markers to place"));
      if (p.initiative) card.append(h("em", "", "◆ initiative" + (p.claimed ? " (claimed this round)" : "")));
      if (p.turn) card.append(h("em", "", "▶ his action"));
      if (p.won) card.append(h("em", "", "★ won"));
      row.append(card);
    }
    if (row.children.length) box.append(row);
    for (const line of pic.words || []) box.append(h("p", "words", line));
  }

  // Draw `pic` (a snapshot's "picture") into the <svg> `svg` (the ring) and the element `box` (its words);
  // fmin: the smallest font size that reads, in the ring's units.
  function draw(svg, box, pic, fmin) {
    NS = svg.namespaceURI;
    FMIN = fmin || 0;
    ring(svg, pic.ring, pic.letters);
    box.textContent = "";
    box.dataset.game = pic.game;
    if (pic.game === "tank") { tank(box, pic); setting(box, pic.setting); }
    else if (pic.game === "victory") victory(box, pic);
    else if (pic.game === "warchest") warchest(box, pic);
    else for (const line of pic.words || []) box.append(h("p", "words", line));
    if (pic.device) box.append(h("p", "words device", pic.device));      // the device in the page: how it is played
  }

  return { draw: draw, WIDTH: W };
})();
