// The device in the page (issue 63): the firmware's own app in MicroPython's WebAssembly VM
// (the npm package's micropython.mjs, copied into the site by `make site`), behind the
// browser's hardware layer (osada_fw/hal/browser.py). The page's lines go in, the app's
// lines come out; /state (the app's journal) is kept in the browser's storage (IndexedDB):
// after each step what changed in /state is stored in one transaction, and what the app
// wrote in that step (its replies: the acknowledgements) goes to the page only once that
// transaction is complete. A tab closed, reloaded or killed before then has acknowledged
// nothing that is not stored; the next opening restores the game from the stored journal.
import { loadMicroPython } from "./vm/micropython.mjs";

const DB = "osada-device", STORE = "state", STEP_MS = 8, HEAP = 2 * 1024 * 1024;
let mp = null, hal = null, words = null, names = "{}", db = null, inbox = [], presses = [], chain = Promise.resolve();
const stored = new Map();                      // what IndexedDB holds: path -> bytes

function openDb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function loadStored() {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readonly"), store = tx.objectStore(STORE), req = store.openCursor();
    req.onsuccess = () => {
      const c = req.result;
      if (c) { stored.set(c.key, new Uint8Array(c.value)); c.continue(); } else resolve();
    };
    req.onerror = () => reject(req.error);
  });
}

// What changed in /state since it was last stored: [[path, bytes or null (gone)]]
function changes() {
  const out = [], seen = new Set();
  for (const name of mp.FS.readdir("/state")) {
    if (name === "." || name === "..") continue;
    const path = "/state/" + name, st = mp.FS.stat(path);
    if (!mp.FS.isFile(st.mode)) continue;
    seen.add(path);
    const now = mp.FS.readFile(path), was = stored.get(path);
    if (!was || was.length !== now.length || !was.every((b, i) => b === now[i])) out.push([path, now]);
  }
  for (const path of stored.keys()) if (!seen.has(path)) out.push([path, null]);
  return out;
}

function store(list) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite"), s = tx.objectStore(STORE);
    for (const [path, data] of list) {
      if (data === null) s.delete(path); else s.put(data.slice().buffer, path);
    }
    tx.oncomplete = () => {
      for (const [path, data] of list) { if (data === null) stored.delete(path); else stored.set(path, data.slice()); }
      resolve();
    };
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

// fed: a step that took something in. The app writes its journal for what it is asked or pressed,
// and then says so: /state is compared after such a step or one that wrote out, and on an idle
// step only every IDLE_CHECK-th (what the app writes of its own accord, its last game chosen)
const IDLE_CHECK = 50;
let idle = 0;
// The app's lines in words and pictures (osada.site.reader, the host's own modules, in this VM):
// read in the step's order, handed on with the lines.
function out(text, fed = true) {
  idle = fed || text ? 0 : idle + 1;
  const list = idle % IDLE_CHECK === 0 ? changes() : [];
  let said = "";
  try {
    if (text && words) said = words.read(text);
  } catch (e) {                                  // the page's words failed: the device goes on all the same
    console.warn("osada.site.reader: " + (e.message || e));
  }
  chain = chain.then(() => (list.length ? store(list) : null)).then(() => { if (text) postMessage({ t: "out", text, said }); })
    .catch((e) => postMessage({ t: "error", text: "the browser's storage refused the game: " + e }));
}

let stopped = false;                           // an import is replacing the game: the app stops

// The LEDs for the page's ring, while the page draws the ring (a game other than Siege, whose
// picture is drawn from its state): after a step, when they changed (always: at once).
let rings = false;
function sendRing(always) {
  const ring = hal.ring(always);
  if (ring) postMessage({ t: "ring", colours: ring.split(",") });
}

function step() {
  if (stopped) return;
  try {
    const text = inbox.join("");
    inbox = [];
    const p = presses.join(",");
    presses = [];
    out(hal.step(text, p), !!(text || p));
    if (rings) sendRing(false);
  } catch (e) {
    postMessage({ t: "error", text: String(e.message || e) });
    return;
  }
  setTimeout(step, STEP_MS);
}

// A game out and in (issue 63 item 3): the journal's own file, as stored (what the page was
// told is done), the same format the simulator's build/sim-state/journal.bin and a board keep.
function exportGame() {
  chain = chain.then(() => {
    const name = hal.journal_name(), data = stored.get("/state/" + name);
    postMessage({ t: "file", name: name, data: data ? data.slice() : null });
  });
}

function importGame(data) {
  stopped = true;
  chain = chain.then(() => new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite"), s = tx.objectStore(STORE);
    s.clear();
    s.put(new Uint8Array(data).slice().buffer, "/state/" + hal.journal_name());
    tx.oncomplete = () => { postMessage({ t: "imported" }); resolve(); };
    tx.onerror = tx.onabort = () => reject(tx.error);
  })).catch((e) => postMessage({ t: "error", text: "the browser's storage refused the game: " + e }));
}

onmessage = (e) => {
  const m = e.data;
  if (m.t === "in") inbox.push(m.text);
  else if (m.t === "press") presses.push(m.what);
  else if (m.t === "rings") { rings = !!m.on; if (rings && hal) sendRing(true); }
  else if (m.t === "names") { names = JSON.stringify(m.names); if (words) words.start(names); }
  else if (m.t === "export") exportGame();
  else if (m.t === "import") importGame(m.data);
};

(async () => {
  try {
    // the firmware's modules: one file (fw/bundle.bin) and its index ([path, offset, length])
    const [index, bundle] = await Promise.all([fetch("fw/files.json").then((r) => r.json()),
                                               fetch("fw/bundle.bin").then((r) => r.arrayBuffer())]);
    mp = await loadMicroPython({ heapsize: HEAP, stdout: () => {}, stderr: (line) => console.warn(line) });
    let config = "{}";
    for (const [f, at, n] of index) {
      const data = new Uint8Array(bundle, at, n);
      if (f === "config.json") { config = new TextDecoder().decode(data); continue; }
      const path = "/lib/" + f;
      mp.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      mp.FS.writeFile(path, data);
    }
    db = await openDb();
    await loadStored();
    mp.FS.mkdirTree("/state");
    for (const [path, data] of stored) mp.FS.writeFile(path, data);
    words = mp.pyimport("osada.site.reader");
    words.start(names);
    hal = mp.pyimport("osada_fw.hal.browser");
    const seed = crypto.getRandomValues(new Uint32Array(1))[0] >>> 2;
    out(hal.start(seed, config, "/state"));
    postMessage({ t: "ready" });
    setTimeout(step, STEP_MS);
  } catch (e) {
    postMessage({ t: "error", text: String(e.message || e) });
  }
})();
