"""Read a bytecode .mpy file (format v6) and tally what MicroPython puts in RAM
when it imports it.

Importing an .mpy from a read/write filesystem (littlefs on a stock Pico)
copies into the heap: every function's bytecode, the characters of every new
qstr (identifier), and every str/bytes constant.  Imported from ROMFS, the
same three stay in flash and are used in place (MicroPython's
py/persistentcode.c, `mp_reader_try_read_rom`).  This module counts those three
parts exactly, so the benchmarks can project the heap of a ROMFS deployment
from the heap measured with a filesystem one.

Only bytecode .mpy files are read (what `mpy-cross` makes by default); native
code is refused.
"""

import os

GC_BLOCK = 16   # bytes per heap block on a 32-bit port (4 words): RP2040, RP2350, wasm32

# object kinds in the constant table (py/persistentcode.h)
_OBJ_NONE, _OBJ_FALSE, _OBJ_TRUE, _OBJ_ELLIPSIS = 1, 2, 3, 4
_OBJ_STR, _OBJ_BYTES, _OBJ_INT, _OBJ_FLOAT, _OBJ_COMPLEX, _OBJ_TUPLE = 5, 6, 7, 8, 9, 10


class MpyFormatError(ValueError):
    pass


def blocks(nbytes):
    """Heap bytes an allocation of nbytes takes (whole GC blocks)."""
    return -(-nbytes // GC_BLOCK) * GC_BLOCK


class _Reader:
    def __init__(self, data, name):
        self.data = data
        self.pos = 0
        self.name = name

    def byte(self):
        if self.pos >= len(self.data):
            raise MpyFormatError("%s: ends early at byte %d" % (self.name, self.pos))
        b = self.data[self.pos]
        self.pos += 1
        return b

    def uint(self):
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if not b & 0x80:
                return n

    def take(self, n):
        if self.pos + n > len(self.data):
            raise MpyFormatError("%s: ends early at byte %d" % (self.name, self.pos))
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk


class MpyContents:
    """What one .mpy holds, as the loader sees it."""

    def __init__(self):
        self.qstrs = []          # the module's non-static qstrs (str), in table order
        self.n_static_qstrs = 0
        self.str_consts = []     # str constants (str)
        self.bytes_consts = []   # bytes constants (bytes)
        self.other_consts = 0    # ints, floats, None, tuples...
        self.functions = 0       # raw code objects: the module body, each def/lambda/class body
        self.bytecode = []       # bytecode length of each raw code, bytes

    def bytecode_heap_bytes(self):
        """Heap taken by the bytecode when copied into RAM (one allocation per function)."""
        return sum(blocks(n) for n in self.bytecode)

    def const_heap_bytes(self, interned=()):
        """Heap taken by the characters of str/bytes constants copied into RAM.
        A str equal to an already interned qstr costs nothing on either path
        (the loader hands out the qstr), so those in `interned` are skipped."""
        total = 0
        for s in self.str_consts:
            if s not in interned:
                total += blocks(len(s.encode("utf-8")) + 1)
        for b in self.bytes_consts:
            if b:
                total += blocks(len(b) + 1)
        return total


def read_mpy(path):
    with open(path, "rb") as f:
        data = f.read()
    return parse_mpy(data, os.path.basename(path))


def parse_mpy(data, name="<mpy>"):
    r = _Reader(data, name)
    header = r.take(4)
    if len(header) < 4 or header[0:1] != b"M" or header[1] != 6:
        raise MpyFormatError("%s: not an .mpy v6 file" % name)
    if header[2] >> 2:
        raise MpyFormatError("%s: holds native code; only bytecode .mpy files are read" % name)
    info = MpyContents()
    n_qstr = r.uint()
    n_obj = r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if n & 1:
            info.n_static_qstrs += 1
            continue
        info.qstrs.append(r.take(n >> 1).decode("utf-8"))
        if r.byte() != 0:
            raise MpyFormatError("%s: qstr without its terminator at byte %d" % (name, r.pos))
    for _ in range(n_obj):
        _read_obj(r, info)
    _read_raw_code(r, info)
    if r.pos != len(data):
        raise MpyFormatError("%s: %d bytes left over after the module" % (name, len(data) - r.pos))
    return info


def _read_obj(r, info):
    kind = r.byte()
    if kind in (_OBJ_NONE, _OBJ_FALSE, _OBJ_TRUE, _OBJ_ELLIPSIS):
        info.other_consts += 1
        return
    n = r.uint()
    if kind == _OBJ_TUPLE:
        info.other_consts += 1
        for _ in range(n):
            _read_obj(r, info)
        return
    if kind in (_OBJ_STR, _OBJ_BYTES):
        chunk = r.take(n)
        if r.byte() != 0:
            raise MpyFormatError("%s: constant without its terminator at byte %d" % (r.name, r.pos))
        if kind == _OBJ_STR:
            info.str_consts.append(chunk.decode("utf-8"))
        else:
            info.bytes_consts.append(bytes(chunk))
        return
    if kind in (_OBJ_INT, _OBJ_FLOAT, _OBJ_COMPLEX):
        r.take(n)
        info.other_consts += 1
        return
    raise MpyFormatError("%s: unknown constant kind %d at byte %d" % (r.name, kind, r.pos - 1))


def _read_raw_code(r, info):
    kind_len = r.uint()
    if kind_len & 3:
        raise MpyFormatError("%s: native function; only bytecode .mpy files are read" % r.name)
    n = kind_len >> 3
    r.take(n)
    info.functions += 1
    info.bytecode.append(n)
    if kind_len & 4:
        for _ in range(r.uint()):
            _read_raw_code(r, info)


def flash_resident_bytes(paths, ram_qstrs):
    """Heap bytes that importing these .mpy files from a filesystem copies into
    RAM and that importing them from ROMFS leaves in flash.

    ram_qstrs: the qstrs that ended up in the RAM qstr pool (from
    `micropython.qstr_info(1)` on the same run); a module qstr counts only if
    it is among them (a name the firmware already had costs nothing).
    Returns a dict of the three parts and their total."""
    ram_qstrs = set(ram_qstrs)
    bytecode = consts = 0
    names = set()
    for p in paths:
        info = read_mpy(p)
        bytecode += info.bytecode_heap_bytes()
        consts += info.const_heap_bytes(ram_qstrs)
        names.update(q for q in info.qstrs if q in ram_qstrs)
    # qstr characters sit in shared chunks, each string with its terminator
    qchars = sum(len(q.encode("utf-8")) + 1 for q in names)
    return {"bytecode": bytecode, "consts": consts, "qstr_chars": qchars,
            "total": bytecode + consts + qchars}
