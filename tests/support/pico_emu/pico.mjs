// An emulated Raspberry Pi Pico (rp2040js) that runs a real MicroPython UF2,
// for tests: see README.md beside this file.  The Python side (__init__.py)
// starts it and talks to it over stdin/stdout, one JSON object per line:
//
//   in:  {"op": "serial", "b64": ..., "tag": t}   bytes for the Pico's USB serial; with
//             a tag, {"ev": "fed", "tag": t, "ns": ...} says when the last one went in
//        {"op": "pin", "pin": 6, "value": false}   drive an input pin now
//        {"op": "seq", "id": 1, "steps": [[pin, value, after_ms], ...]}
//             drive pins at simulated times (each step after_ms after the one before)
//        {"op": "time"}                      -> {"ev": "time", "ns": simulated ns}
//        {"op": "save", "path": ...}         write the whole flash (2 MiB) to a file
//        {"op": "cut", "path": ...}          a power cut: the CPU stops where it is, the
//                                            flash is written to the file, the emulator exits
//        {"op": "cut_in_flash", "op_number": n, "path": ...}   a power cut halfway
//             through the n-th flash erase or program from now (then as "cut");
//             with "fraction": f and "seed": s, torn as NOR tears: each bit the
//             operation would change has changed with probability f, anywhere in it
//        {"op": "quit"}                      (closing stdin does the same)
//   out: {"ev": "usb"}                        the USB CDC is configured (the host "plugged in")
//        {"ev": "serial", "marks": [[offset, ns], ...], "b64": ...}   bytes the Pico sent
//             on its USB serial; marks: when each USB packet of them came (simulated ns)
//        {"ev": "frame", "ns": t, "hex": ...} one WS2812 frame decoded from the LED pin
//        {"ev": "flash", "op": "erase"|"program", "addr": offset, "n": bytes}
//        {"ev": "seq", "id": 1}               a pin sequence has been played out
//        {"ev": "time", "ns": t}, {"ev": "saved", "path": p}, {"ev": "error", "message": m}
//
// Options: --uf2 F (the firmware), --bootrom F (the RP2040 bootrom, 16 KiB),
// --flash F (a whole 2 MiB flash image, e.g. one saved by "save": a power cut
// and reboot), --fs F (a littlefs image of the filesystem region, placed
// at 0xA0000), --high 3,4 / --low 6 (input pins' levels before boot),
// --led-pin 2, --no-flash-writes (flash stays read-only, as in rp2040js itself),
// --instant-flash (erase and program take no simulated time; by default they
// take the flash chip's typical times).

import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { RP2040, USBCDC } from 'rp2040js';

const FLASH_SIZE = 2 * 1024 * 1024;
const CYCLE_NS = 1e9 / 125e6;           // 125 MHz
const SLICE = 200000;                    // instructions between looks at stdin

function parseArgs(argv) {
  const a = { high: [], low: [], ledPin: 2, flashWrites: true, flashTiming: true };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const next = () => argv[++i];
    if (k === '--uf2') a.uf2 = next();
    else if (k === '--bootrom') a.bootrom = next();
    else if (k === '--flash') a.flash = next();
    else if (k === '--fs') a.fs = next();
    else if (k === '--high') a.high = next().split(',').filter(Boolean).map(Number);
    else if (k === '--low') a.low = next().split(',').filter(Boolean).map(Number);
    else if (k === '--led-pin') a.ledPin = Number(next());
    else if (k === '--no-flash-writes') a.flashWrites = false;
    else if (k === '--instant-flash') a.flashTiming = false;
    else throw new Error('unknown option ' + k);
  }
  return a;
}

function send(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

// UF2: 512-byte blocks, magic numbers at 0, 4 and 508; target address at 12,
// payload size at 16, payload from 32.
function loadUF2(data, flash) {
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157 ||
        v.getUint32(508, true) !== 0x0ab16f30) {
      throw new Error('not a UF2 block at ' + off);
    }
    const addr = v.getUint32(12, true) - 0x10000000;
    const size = v.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr);
  }
}

// ---------------------------------------------------------------- flash writes
//
// rp2040js's flash controller is a stub: a write never reaches mcu.flash.  The
// SDK reaches flash only through six bootrom routines found by their two-letter
// codes in the bootrom's function table.  A BKPT at each entry hands the call
// to us: we do the work on mcu.flash and return to the caller.

const ROM_FUNCS = { IF: 'connect', EX: 'exit_xip', RE: 'erase', RP: 'program', FC: 'flush', CX: 'enter_xip' };

function romTable(bootrom8) {
  const u16 = (a) => bootrom8[a] | (bootrom8[a + 1] << 8);
  const table = u16(0x14);
  const out = {};
  for (let p = table; u16(p) !== 0; p += 4) {
    const code = String.fromCharCode(bootrom8[p], bootrom8[p + 1]);
    out[code] = u16(p + 2);
  }
  return out;
}

function patchFlashRoutines(mcu, bootromBytes) {
  const funcs = romTable(bootromBytes);
  const byImm = {};
  let imm = 0x80;                       // our BKPT numbers; nothing else in the ROM uses these
  const rom16 = new Uint16Array(mcu.bootrom.buffer);
  for (const [code, what] of Object.entries(ROM_FUNCS)) {
    if (funcs[code] === undefined) throw new Error('bootrom has no ' + code);
    const entry = funcs[code] & ~1;
    rom16[entry >> 1] = 0xbe00 | imm;   // BKPT #imm
    byImm[imm] = what;
    imm++;
  }
  return byImm;
}

// The flash chip's typical times (Winbond W25Q16JV, the Pico's): the CPU waits
// them out inside the routine (the SDK runs it with interrupts off), while the
// clock and its timers go on.
const ERASE_SECTOR_NS = 45e6;            // per 4 KiB sector
const PROGRAM_PAGE_NS = 0.7e6;           // per 256-byte page

// A small seeded PRNG (mulberry32) for bit-level tears: the same seed, the same tear.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// cut: null, or {left: n, path, fraction, seed} -- a power cut inside the n-th
// erase or program from now (1 = the next one): without a fraction its first
// half is done; with one, each bit it would change has changed with that
// probability (a NOR tear); the flash goes to path and the emulator exits.
function flashRoutine(mcu, what, cut, timing) {
  const r = mcu.core.registers;
  if (what === 'erase' || what === 'program') {
    const addr = r[0];
    const count = what === 'erase' ? r[1] : r[2];
    const dying = cut !== null && --cut.left === 0;
    const tear = dying && typeof cut.fraction === 'number';
    const n = Math.min(dying && !tear ? count >> 1 : count, FLASH_SIZE - addr);
    const target = (i) => what === 'erase' ? 0xff : mcu.flash[addr + i] & mcu.readUint8(r[1] + i);
    if (tear) {
      const rnd = prng(cut.seed || 1);
      for (let i = 0; i < n; i++) {
        const old = mcu.flash[addr + i], want = target(i), diff = old ^ want;
        let keep = 0;
        for (let b = 0; b < 8; b++) if (diff & (1 << b) && rnd() >= cut.fraction) keep |= 1 << b;
        mcu.flash[addr + i] = (want & ~keep) | (old & keep);
      }
    } else if (what === 'erase') {
      mcu.flash.fill(0xff, addr, addr + n);
    } else {
      const src = r[1];
      for (let i = 0; i < n; i++) mcu.flash[addr + i] &= mcu.readUint8(src + i);  // NOR: 1s to 0s only
    }
    send({ ev: 'flash', op: what, addr, n: count });
    if (timing && !dying) {
      const ns = what === 'erase' ? Math.ceil(count / 4096) * ERASE_SECTOR_NS : Math.ceil(count / 256) * PROGRAM_PAGE_NS;
      mcu.clock.tick(ns);
    }
    if (dying) {
      writeFileSync(cut.path, mcu.flash);
      send({ ev: 'saved', path: cut.path, cut: what, addr });
      process.exit(0);
    }
  }
  mcu.core.PC = mcu.core.LR & ~1;       // return to the caller
}

// ------------------------------------------------------------ WS2812 decoder
//
// A bit is one high pulse: ~0.4 us for 0, ~0.8 us for 1.  A low of 50 us or
// more ends the frame (the strip latches it).

class WS2812 {
  constructor(mcu, pin) {
    this.mcu = mcu;
    this.bits = [];
    this.rise = null;
    this.fall = null;
    mcu.gpio[pin].addListener(() => this.edge(mcu.gpio[pin].outputValue));
  }

  edge(high) {
    const t = this.mcu.clock.nanos;
    if (high) {
      if (this.bits.length && t - this.fall >= 50000) this.flush();
      this.rise = t;
    } else if (this.rise !== null) {
      this.bits.push(t - this.rise > 625 ? 1 : 0);
      this.rise = null;
      this.fall = t;
    }
  }

  poll() {
    if (this.bits.length && this.fall !== null && this.mcu.clock.nanos - this.fall >= 50000) this.flush();
  }

  flush() {
    const n = this.bits.length >> 3;
    const out = Buffer.alloc(n);
    for (let i = 0; i < n * 8; i++) out[i >> 3] |= this.bits[i] << (7 - (i & 7));
    send({ ev: 'frame', ns: this.fall, hex: out.toString('hex'), bits: this.bits.length });
    this.bits = [];
  }
}

// ---------------------------------------------------------------------- main

function main() {
  const args = parseArgs(process.argv.slice(2));
  const mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error: (c, m) => process.stderr.write(`${c}: ${m}\n`) };
  const bootromBytes = new Uint8Array(readFileSync(args.bootrom));
  mcu.loadBootrom(new Uint32Array(bootromBytes.buffer, bootromBytes.byteOffset, bootromBytes.length >> 2));

  if (args.flash) {
    mcu.flash.set(new Uint8Array(readFileSync(args.flash)).subarray(0, FLASH_SIZE));
  } else {
    loadUF2(new Uint8Array(readFileSync(args.uf2)), mcu.flash);
    if (args.fs) mcu.flash.set(new Uint8Array(readFileSync(args.fs)), 0xa0000);
  }
  const breaks = args.flashWrites ? patchFlashRoutines(mcu, bootromBytes) : {};
  mcu.onBreak = (imm) => {
    if (breaks[imm]) {
      flashRoutine(mcu, breaks[imm], cutInFlash, args.flashTiming);
    } else {
      send({ ev: 'error', message: `BKPT #${imm} at 0x${(mcu.core.PC - 2).toString(16)}` });
      stopped = true;
    }
  };

  for (const p of args.high) mcu.gpio[p].setInputValue(true);
  for (const p of args.low) mcu.gpio[p].setInputValue(false);
  const leds = new WS2812(mcu, args.ledPin);

  const cdc = new USBCDC(mcu.usbCtrl);
  const inbox = [];                      // bytes waiting for room in the CDC's FIFO
  let outbox = [];
  let outboxMarks = [];                  // [offset in the outbox, simulated ns] per USB packet
  let outboxBytes = 0;
  cdc.onDeviceConnected = () => send({ ev: 'usb' });
  cdc.onSerialData = (buf) => {
    outboxMarks.push([outboxBytes, mcu.clock.nanos]);
    outboxBytes += buf.length;
    outbox.push(Buffer.from(buf));
  };

  let stopped = false;
  let cutInFlash = null;
  let fedTags = [];                      // [bytes still before its end, tag]: say when it is in
  const quit = () => { stopped = true; };

  function drive(pin, value) { mcu.gpio[pin].setInputValue(!!value); }

  function playSeq(id, steps) {
    let k = 0;
    const alarm = mcu.clock.createAlarm(() => {
      const [pin, value] = steps[k];
      drive(pin, value);
      k++;
      if (k < steps.length) alarm.schedule(Math.max(1, steps[k][2] * 1e6));
      else send({ ev: 'seq', id });
    });
    if (!steps.length) { send({ ev: 'seq', id }); return; }
    alarm.schedule(Math.max(1, steps[0][2] * 1e6));
  }

  const rl = createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let m;
    try { m = JSON.parse(line); } catch (e) { send({ ev: 'error', message: 'bad control line' }); return; }
    if (m.op === 'serial') {
      inbox.push(...Buffer.from(m.b64, 'base64'));
      if (m.tag !== undefined) fedTags.push([inbox.length, m.tag]);
    }
    else if (m.op === 'pin') drive(m.pin, m.value);
    else if (m.op === 'seq') playSeq(m.id, m.steps);
    else if (m.op === 'time') send({ ev: 'time', ns: mcu.clock.nanos });
    else if (m.op === 'save') { writeFileSync(m.path, mcu.flash); send({ ev: 'saved', path: m.path }); }
    else if (m.op === 'cut') { writeFileSync(m.path, mcu.flash); send({ ev: 'saved', path: m.path }); process.exit(0); }
    else if (m.op === 'cut_in_flash') cutInFlash = { left: m.op_number, path: m.path, fraction: m.fraction, seed: m.seed };
    else if (m.op === 'quit') quit();
    else send({ ev: 'error', message: 'unknown op ' + m.op });
  });
  rl.on('close', quit);

  mcu.core.PC = 0x10000000;             // boot2 at the start of flash, as the bootrom would
  const clock = mcu.clock;
  const core = mcu.core;

  function slice() {
    if (stopped) { process.exit(0); }
    let fed = 0;
    while (inbox.length && !cdc.txFIFO.full) { cdc.sendSerialByte(inbox.shift()); fed++; }
    if (fedTags.length) {
      fedTags = fedTags.filter(([left, tag]) => {
        if (left - fed > 0) return true;
        send({ ev: 'fed', tag, ns: clock.nanos });
        return false;
      }).map(([left, tag]) => [left - fed, tag]);
    }
    for (let i = 0; i < SLICE && !stopped; i++) {
      if (core.waiting) {
        const dt = clock.nanosToNextAlarm;
        clock.tick(dt);
        i += dt / CYCLE_NS;
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
    }
    leds.poll();
    if (outbox.length) {
      send({ ev: 'serial', marks: outboxMarks, b64: Buffer.concat(outbox).toString('base64') });
      outbox = [];
      outboxMarks = [];
      outboxBytes = 0;
    }
    setImmediate(slice);
  }
  slice();
}

main();
