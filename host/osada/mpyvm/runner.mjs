#!/usr/bin/env node
// Osada: run Python code inside REAL MicroPython (the official WebAssembly
// port from npm, @micropython/micropython-webassembly-pyscript, pinned in the
// repo's package.json) under Node.js.
//
//   node runner.mjs [--heap BYTES] [--mount HOSTDIR:VMDIR]... [--file HOSTFILE:VMPATH]...
//                   [--path VMDIR]... [--] SCRIPT.py [ARGS...]
//   node runner.mjs [options] -c CODE [ARGS...]
//   node runner.mjs [options]                 (stdin a TTY: interactive REPL;
//                                              otherwise the program is read from stdin)
//
// Exit status: 0 normal end; N for SystemExit(N) (None -> 0, a message -> printed, 1);
// 1 uncaught exception (traceback on stderr); 3 runner error (bad option, missing
// path, VM not installed); 4 the VM itself crashed (a JS/wasm error, not a Python one).
//
// Stdin: when the runner's stdin is not a TTY it is read to EOF before the script
// starts and is available inside the VM both as the file /stdin
// (open('/stdin').read()) and as sys.stdin. /stdin always exists (empty if there
// was no data). See README.md next to this file.

import fs from "node:fs";
import path from "node:path";
import tty from "node:tty";
import { fileURLToPath, pathToFileURL } from "node:url";

const PKG = "@micropython/micropython-webassembly-pyscript";
const DEFAULT_HEAP = 2 * 1024 * 1024;
const MIN_HEAP = 4096; // the VM fails to start with a heap of a few bytes
const MOUNT_EXTENSIONS = new Set([".py", ".mpy", ".json", ".txt"]);
const EXIT_RUNNER_ERROR = 3;
const EXIT_VM_CRASH = 4;
const BOOT_FN = "__osada_boot";

const USAGE = `usage: node runner.mjs [--heap BYTES] [--mount HOSTDIR:VMDIR]... [--file HOSTFILE:VMPATH]...
                      [--path VMDIR]... [--] (SCRIPT.py | -c CODE) [ARGS...]
With no script: a REPL if stdin is a terminal, else the program is read from stdin.
  --heap BYTES   initial MicroPython GC heap (suffix k/m allowed; default 2m)
  --mount H:V    copy host dir H (its .py .mpy .json .txt files) to VM dir V
  --file  H:V    copy one host file H to VM path V
  --path  V      prepend VM dir V to sys.path (repeatable; given order kept)
  --drive FUNC   after the script, call its FUNC() until it returns a false value,
                 each call at top level after a full gc.collect()
Inside the VM, stdin data is the file /stdin (and sys.stdin).`;

// ---------------------------------------------------------------- output ---

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms) {
  Atomics.wait(sleepCell, 0, 0, ms);
}

// Byte-exact buffered writer over a raw fd (synchronous, so nothing is lost
// when we exit). Line-flushed when the fd is a terminal.
class Sink {
  constructor(fd, size = 1 << 16) {
    this.fd = fd;
    this.buf = Buffer.allocUnsafe(size);
    this.pos = 0;
    this.lineFlush = tty.isatty(fd);
    this.closed = false;
  }
  byte(c) {
    this.buf[this.pos++] = c;
    if (this.pos === this.buf.length || (this.lineFlush && c === 10)) this.flush();
  }
  bytes(data) {
    for (let i = 0; i < data.length; i++) this.byte(data[i]);
  }
  text(s) {
    this.bytes(Buffer.from(s, "utf8"));
  }
  flush() {
    let off = 0;
    while (off < this.pos && !this.closed) {
      try {
        off += fs.writeSync(this.fd, this.buf, off, this.pos - off);
      } catch (e) {
        if (e.code === "EAGAIN") sleepMs(1);
        else this.closed = true; // EPIPE etc.: the reader went away; drop output
      }
    }
    this.pos = 0;
  }
}

const out = new Sink(1);
const err = new Sink(2);

function flushAll() {
  out.flush();
  err.flush();
}

function die(code, message) {
  flushAll();
  err.text(`osada-mpyvm: ${message}\n`);
  err.flush();
  process.exit(code);
}

// ----------------------------------------------------------------- stdin ---

function readAllStdin() {
  try {
    if (tty.isatty(0)) return Buffer.alloc(0);
  } catch {
    return Buffer.alloc(0);
  }
  const chunks = [];
  const chunk = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") {
        sleepMs(2);
        continue;
      }
      break; // EOF (Windows), EBADF (closed stdin), ...: no (more) data
    }
    if (n === 0) break;
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

// ------------------------------------------------------------------- CLI ---

function parseSize(text, what) {
  const m = /^(\d+)([kKmM]?)$/.exec(text || "");
  if (!m) die(EXIT_RUNNER_ERROR, `${what}: expected a byte count like 2097152, 256k or 2m, got '${text}'`);
  const n = parseInt(m[1], 10) * ({ k: 1024, m: 1024 * 1024 }[m[2].toLowerCase()] || 1);
  if (n < MIN_HEAP) die(EXIT_RUNNER_ERROR, `${what}: at least ${MIN_HEAP} bytes`);
  return n;
}

function splitPair(text, what) {
  // HOST:VM; split at the last ':' so host paths like C:\x still work.
  const i = (text || "").lastIndexOf(":");
  if (i <= 0 || i === text.length - 1) die(EXIT_RUNNER_ERROR, `${what}: expected HOST:VMPATH, got '${text}'`);
  return [text.slice(0, i), vmAbs(text.slice(i + 1))];
}

function vmAbs(p) {
  return path.posix.resolve("/", p);
}

function parseArgs(argv) {
  const opts = { heap: DEFAULT_HEAP, mounts: [], files: [], paths: [], script: null, code: null, args: [], drive: null };
  let i = 0;
  const value = (name, inline) => {
    if (inline !== undefined) return inline;
    if (i + 1 >= argv.length) die(EXIT_RUNNER_ERROR, `${name} needs a value\n${USAGE}`);
    return argv[++i];
  };
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      i++;
      break;
    }
    if (a === "-h" || a === "--help") {
      out.text(USAGE + "\n");
      out.flush();
      process.exit(0);
    }
    if (a === "-c") {
      opts.code = value("-c");
      i++;
      break;
    }
    const m = /^(--[a-z]+)(?:=(.*))?$/s.exec(a);
    if (!m || !a.startsWith("--")) {
      if (a.startsWith("-") && a !== "-") die(EXIT_RUNNER_ERROR, `unknown option '${a}'\n${USAGE}`);
      break; // the script
    }
    const [, name, inline] = m;
    if (name === "--heap") opts.heap = parseSize(value(name, inline), "--heap");
    else if (name === "--mount") opts.mounts.push(splitPair(value(name, inline), "--mount"));
    else if (name === "--file") opts.files.push(splitPair(value(name, inline), "--file"));
    else if (name === "--path") opts.paths.push(vmAbs(value(name, inline)));
    else if (name === "--drive") opts.drive = value(name, inline);
    else die(EXIT_RUNNER_ERROR, `unknown option '${a}'\n${USAGE}`);
  }
  if (opts.code === null && i < argv.length) opts.script = argv[i++];
  if (opts.script === "-") opts.script = null; // "-": the program is read from stdin
  opts.args = argv.slice(i);
  return opts;
}

// ------------------------------------------------------------ filesystem ---

function hostStat(p) {
  try {
    return fs.statSync(p); // follows symlinks
  } catch {
    return null;
  }
}

function vmExists(FS, p) {
  return FS.analyzePath(p).exists;
}

function vmWrite(FS, vmPath, data) {
  FS.mkdirTree(path.posix.dirname(vmPath));
  FS.writeFile(vmPath, data);
}

function copyTree(FS, hostDir, vmDir, seen) {
  const real = fs.realpathSync(hostDir);
  if (seen.has(real)) return; // symlink loop
  seen.add(real);
  FS.mkdirTree(vmDir);
  for (const name of fs.readdirSync(hostDir).sort()) {
    if (name.startsWith(".") || name === "__pycache__") continue;
    const hostPath = path.join(hostDir, name);
    const st = hostStat(hostPath);
    if (!st) continue; // dangling symlink
    const vmPath = path.posix.join(vmDir, name);
    if (st.isDirectory()) copyTree(FS, hostPath, vmPath, seen);
    else if (st.isFile() && MOUNT_EXTENSIONS.has(path.extname(name).toLowerCase()))
      FS.writeFile(vmPath, fs.readFileSync(hostPath));
  }
}

// Where the script lives inside the VM: under a mount if the host file is in a
// mounted dir, else at its own absolute host path (so __file__ and tracebacks
// name the real file), falling back to /__main__/NAME on non-POSIX hosts.
function vmPathForScript(hostFile, mounts) {
  for (const [hostDir, vmDir] of mounts) {
    const rel = path.relative(path.resolve(hostDir), hostFile);
    if (rel && !rel.startsWith("..") && !path.isAbsolute(rel))
      return path.posix.join(vmDir, ...rel.split(path.sep));
  }
  if (process.platform !== "win32") return hostFile;
  return "/__main__/" + path.basename(hostFile);
}

// ------------------------------------------------------------- bootstrap ---

// Python literal for null, a string or a list of strings (JSON's string escapes
// are all valid in Python string literals).
const py = (v) => (v === null ? "None" : JSON.stringify(v));

function bootSource({ argv, paths, sourcePath, filename, setFile }) {
  return `
def ${BOOT_FN}():
    import sys, builtins
    g = globals()
    del g[${py(BOOT_FN)}]
    sys.argv[:] = ${py(argv)}
    sys.path[:0] = ${py(paths)}

    # This port's own input() never returns under Node; read sys.stdin instead.
    def input(prompt=None):
        if prompt is not None:
            sys.stdout.write(str(prompt))
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line[:-1] if line[-1:] == "\\n" else line
    builtins.input = input

    if ${py(sourcePath)} is None:
        return 0
    ${setFile ? `g["__file__"] = ${py(filename)}` : "pass"}
    with open(${py(sourcePath)}) as f:
        code = compile(f.read(), ${py(filename)}, "exec")
    try:
        exec(code, g)
    except SystemExit as e:
        c = e.args[0] if e.args else None
        if c is None:
            return 0
        if isinstance(c, bool):  # not an int subclass for isinstance() here
            return int(c)
        if isinstance(c, int):
            return c & 255
        print(c, file=sys.stderr)
        return 1
    return 0
`;
}

// The boot function's own frame is noise in a traceback: drop it.
function cleanTraceback(text) {
  return text.replace(new RegExp(`^  File "<stdin>", line \\d+, in ${BOOT_FN}\\n`, "m"), "");
}

// ------------------------------------------------------------------ main ---

async function loadPackage() {
  const runnerDir = path.dirname(fileURLToPath(import.meta.url));
  try {
    return await import(PKG);
  } catch (e) {
    if (e.code !== "ERR_MODULE_NOT_FOUND") throw e;
  }
  const extra = process.env.OSADA_NODE_MODULES;
  if (extra) {
    const entry = path.join(extra, PKG, "micropython.mjs");
    if (fs.existsSync(entry)) return await import(pathToFileURL(entry).href);
  }
  die(
    EXIT_RUNNER_ERROR,
    `MicroPython VM not installed: run \`make setup\` (npm package ${PKG} not found ` +
      `from ${runnerDir}${extra ? ` nor in OSADA_NODE_MODULES=${extra}` : ""})`,
  );
}

function startRepl(mp) {
  mp.replInit();
  out.flush();
  process.stdin.setRawMode(true);
  let queue = Promise.resolve();
  process.stdin.on("data", (data) => {
    for (const c of data) {
      queue = queue.then(async () => {
        const done = await mp.replProcessCharWithAsyncify(c);
        flushAll();
        if (done) {
          process.stdin.setRawMode(false);
          process.exit(0);
        }
      });
    }
  });
}

// --drive FUNC: call the script's FUNC() again and again, each time as its own
// top-level call from JavaScript, with a full gc.collect() (its own call) before
// each, until FUNC returns a false value.  This VM collects garbage only at top
// level (a collection inside a running script frees nothing), so this is how a
// script measures live memory step by step, as a Pico would see it.
function drive(mp, name) {
  const fn = mp.globals.get(name);
  if (typeof fn !== "function") die(EXIT_RUNNER_ERROR, `--drive: the script defines no function ${name}()`);
  for (;;) {
    mp.runPython("import gc\ngc.collect()");
    if (!fn()) return 0;
  }
}

async function main() {
  const major = parseInt(process.versions.node, 10);
  if (major < 18) die(EXIT_RUNNER_ERROR, `Node.js ${process.versions.node} is too old; install Node 18+`);

  const opts = parseArgs(process.argv.slice(2));

  for (const [hostDir] of opts.mounts) {
    const st = hostStat(hostDir);
    if (!st) die(EXIT_RUNNER_ERROR, `mount source does not exist: ${hostDir}`);
    if (!st.isDirectory()) die(EXIT_RUNNER_ERROR, `mount source is not a directory (use --file): ${hostDir}`);
  }
  for (const [hostFile] of opts.files) {
    const st = hostStat(hostFile);
    if (!st || !st.isFile()) die(EXIT_RUNNER_ERROR, `--file source does not exist or is not a file: ${hostFile}`);
  }

  const interactive = opts.script === null && opts.code === null && tty.isatty(0);
  const stdinData = interactive ? Buffer.alloc(0) : readAllStdin();

  const { loadMicroPython } = await loadPackage();
  let stdinPos = 0;
  const programFromStdin = opts.script === null && opts.code === null && !interactive;
  const mp = await loadMicroPython({
    heapsize: opts.heap,
    linebuffer: false,
    stdout: (b) => out.byte(b[0]),
    stderr: (b) => {
      out.flush(); // keep stdout/stderr order when both go to one terminal
      err.byte(b[0]);
      if (b[0] === 10) err.flush();
    },
    stdin: () => (!programFromStdin && stdinPos < stdinData.length ? stdinData[stdinPos++] : null),
  });
  const FS = mp.FS;

  for (const [hostDir, vmDir] of opts.mounts) copyTree(FS, hostDir, vmDir, new Set());
  for (const [hostFile, vmPath] of opts.files) vmWrite(FS, vmPath, fs.readFileSync(hostFile));
  vmWrite(FS, "/stdin", programFromStdin ? new Uint8Array(0) : stdinData);

  let argv0;
  let sourcePath = null;
  let filename = null;
  let setFile = false;
  if (opts.code !== null) {
    argv0 = "-c";
    sourcePath = "/tmp/.osada-main.py";
    filename = "<string>";
    vmWrite(FS, sourcePath, Buffer.from(opts.code, "utf8"));
  } else if (programFromStdin) {
    argv0 = "";
    sourcePath = "/tmp/.osada-main.py";
    filename = "<stdin>";
    vmWrite(FS, sourcePath, stdinData);
  } else if (opts.script !== null) {
    argv0 = opts.script;
    const hostFile = path.resolve(opts.script);
    const st = hostStat(hostFile);
    if (st && st.isFile()) {
      sourcePath = vmPathForScript(hostFile, opts.mounts);
      vmWrite(FS, sourcePath, fs.readFileSync(hostFile));
    } else if (vmExists(FS, vmAbs(opts.script))) {
      sourcePath = vmAbs(opts.script); // a file already placed in the VM by --mount/--file
    } else {
      die(EXIT_RUNNER_ERROR, `script not found (neither on the host nor in the VM): ${opts.script}`);
    }
    filename = sourcePath;
    setFile = true;
  } else {
    argv0 = "";
  }

  let rc;
  try {
    mp.runPython(bootSource({ argv: [argv0, ...opts.args], paths: opts.paths, sourcePath, filename, setFile }));
    rc = mp.globals.get(BOOT_FN)();
    if (opts.drive !== null && rc === 0) rc = drive(mp, opts.drive);
  } catch (e) {
    if (e && e.name === "PythonError") {
      flushAll();
      err.text(cleanTraceback(String(e.message)));
      flushAll();
      process.exit(1);
    }
    die(EXIT_VM_CRASH, `the MicroPython VM crashed: ${(e && e.stack) || e}`);
  }

  if (interactive) {
    startRepl(mp);
    return;
  }
  flushAll();
  process.exit(typeof rc === "number" ? rc : 0);
}

main().catch((e) => die(EXIT_VM_CRASH, `internal error: ${(e && e.stack) || e}`));
