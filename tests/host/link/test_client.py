"""The host's protocol client, tested by replaying byte streams (clean, torn,
corrupted) and against the firmware app on fake hardware."""

import json
import random

import pytest

from osada.link import ports
from osada.link.client import PROTOCOL_VERSION, Decoder, Link, Mirror, ProtocolError
from osada_fw.app import App
from osada_fw.config import led_count
from osada_fw.hal.fake import FakeHardware, ManualClock
from tests.support.app_link import CFG, AppTransport


def truth(game):
    """The device's state as the protocol carries it (no events), canonical."""
    st = json.loads(game.state_json(events=[]))
    del st["events"]
    return json.dumps(st, sort_keys=True)


def same(state, game):
    return json.dumps(state, sort_keys=True) == truth(game)


def device(tmp_path, seed=4):
    clock = ManualClock()
    hw = FakeHardware(led_count(CFG), str(tmp_path), clock=clock, seed=seed)
    app = App(hw, CFG)
    app.boot()
    return app, clock


def recorded_stream(tmp_path):
    """The bytes a device sends for a short session: boot, hello, two acts, state."""
    app, clock = device(tmp_path)
    reqs = [{"id": 1, "cmd": "hello"}, {"id": 2, "cmd": "act", "action": {"do": "end_turn"}},
            {"id": 3, "cmd": "act", "action": {"do": "hit", "enemy": 99}},
            {"id": 4, "cmd": "act", "action": {"do": "end_turn"}}, {"id": 5, "cmd": "state"}]
    out = b""
    for r in reqs:
        app.hw.serial.host_send((json.dumps(r) + "\n").encode())
        for _ in range(3):
            clock.advance(10)
            app.tick()
        out += app.hw.serial.host_take()
    return out, app.siege.game


def mirror_of(chunks):
    d, m = Decoder(), Mirror()
    for c in chunks:
        for msg in d.feed(c):
            m.apply(msg)
    return d, m


def test_clean_stream_builds_the_devices_state(tmp_path):
    data, game = recorded_stream(tmp_path)
    d, m = mirror_of([data])
    assert d.bad == 0 and m.seq == 2 and not m.stale
    assert same(m.state, game)
    assert [e["ev"] for _, e in m.log][:1] == ["boot"]


@pytest.mark.parametrize("seed", range(20))
def test_a_stream_torn_anywhere_decodes_the_same(tmp_path, seed):
    data, _ = recorded_stream(tmp_path)
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, len(data)), 25))
    chunks = [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]
    whole = Decoder().feed(data)
    d = Decoder()
    torn = []
    for c in chunks:
        torn += d.feed(c)
    assert torn == whole and d.bad == 0


def test_corrupted_lines_are_skipped_and_counted_never_raised(tmp_path):
    data, game = recorded_stream(tmp_path)
    lines = data.split(b"\n")
    bad = [b"\xff\xfe\x00garbage", b"{not json", b"[1, 2, 3]", b'"just a string"', b"\x03\x03"]
    # corrupt a few pushed events in the middle, but not the last state push
    mixed = []
    for i, line in enumerate(lines):
        mixed.append(line)
        if i % 4 == 1:
            mixed.append(bad[i % len(bad)])
    d, m = mirror_of([b"\n".join(mixed)])
    assert d.bad >= 4
    assert m.seq == 2
    assert same(m.state, game)


def test_a_line_cut_by_a_lost_connection_does_not_glue_onto_the_next(tmp_path):
    data, _ = recorded_stream(tmp_path)
    d = Decoder()
    d.feed(data[:len(data) // 2 + 7])          # torn in the middle of a line
    d.reset()                                   # the link reconnected
    msgs = d.feed(b'{"id": 9, "ok": true}\n')
    assert msgs == [{"id": 9, "ok": True}] and d.bad == 0


def test_overflow_and_boot_ask_for_a_resync():
    m = Mirror()
    m.apply({"ev": "state", "seq": 3, "state": {"turn": 1}})
    assert not m.need_resync and not m.stale
    m.apply({"ev": "overflow", "dropped": 4})
    assert m.need_resync
    m.apply({"id": 1, "ok": True, "seq": 5, "state": {"turn": 2}})
    assert not m.need_resync and m.seq == 5
    m.lost()
    assert m.stale and m.state == {"turn": 2}          # the last board is kept


def test_link_requests_mirror_and_log_against_the_firmware(tmp_path):
    app, clock = device(tmp_path)
    link = Link(lambda: AppTransport(app, clock))
    link.connect()
    assert link.mirror.hello["protocol"] == PROTOCOL_VERSION
    assert link.mirror.seq == 0
    for _ in range(3):
        assert link.request("act", action={"do": "end_turn"})["ok"]
    refused = link.request("act", action={"do": "hit", "enemy": 999})
    assert refused["ok"] is False and refused["rule"] == "R10"
    link.poll()
    assert link.mirror.seq == 3
    assert same(link.mirror.state, app.siege.game)
    scenario = link.fetch_log()
    from shared_rules.siege.scenario import run
    g, _ = run(scenario)
    assert g.state_json(events=[]) == app.siege.game.state_json(events=[])


def test_link_reconnects_and_resyncs_after_the_device_restarts(tmp_path):
    app, clock = device(tmp_path)
    current = {"app": app}
    link = Link(lambda: AppTransport(current["app"], clock))
    link.connect()
    link.request("act", action={"do": "end_turn"})
    link.transport.close()                      # the cable is pulled
    link.poll()
    assert not link.connected and link.mirror.stale
    seq_before = link.mirror.seq
    # the device reboots on the same flash; the link comes back by itself
    app2 = App(FakeHardware(led_count(CFG), str(tmp_path), clock=clock, seed=9), CFG)
    app2.boot()
    current["app"] = app2
    link.connect()
    assert not link.mirror.stale and link.mirror.seq == seq_before == 1
    assert same(link.mirror.state, app2.siege.game)


def test_protocol_version_mismatch_is_a_clear_error():
    class OldDevice:
        def __init__(self):
            self.out = b""

        def write(self, data):
            req = json.loads(data)
            self.out += (json.dumps({"id": req["id"], "ok": True, "protocol": 99}) + "\n").encode()

        def read(self, n):
            d, self.out = self.out, b""
            return d

        def close(self):
            pass

    link = Link(OldDevice)
    with pytest.raises(ProtocolError) as ei:
        link.connect()
    assert "protocol 99" in str(ei.value) and "host tool" in str(ei.value)
    assert not link.connected


def test_a_silent_port_times_out_instead_of_hanging():
    class Silent:
        def write(self, data):
            pass

        def read(self, n):
            return b""

        def close(self):
            pass

    link = Link(Silent)
    with pytest.raises(TimeoutError):
        link.connect()


@pytest.mark.parametrize("reads", [
    [b'{"a": 1}\n{"b": 2}\n'],
    [b'{"a": 1}\r{"b": 2}\r'],
    [b'{"a": 1}\r\n{"b": 2}\r\n'],
    [b'{"a": 1}\r', b'\n{"b": 2}\r', b'\n'],
    [b'\xef\xbb\xbf{"a": 1}\r\n\xef\xbb\xbf', b'{"b": 2}\r'],
], ids=["lf", "cr", "crlf", "crlf-split", "bom"])
def test_decoder_takes_cr_lf_and_crlf_line_ends(reads):
    d = Decoder()
    msgs = []
    for data in reads:
        msgs += d.feed(data)
    assert msgs == [{"a": 1}, {"b": 2}] and d.bad == 0


def test_a_dropped_partial_line_reads_as_a_sentence():
    from osada.words import texts
    line = texts.describe({"ev": "line_timeout", "bytes": 12, "error": "..."})
    assert line.startswith("The device dropped an unfinished request (12 bytes")


# ------------------------------------------- the cable pulled: words, not pyserial's

PYSERIAL_GONE = ("device reports readiness to read but returned no data "
                 "(device disconnected or multiple access on port?)")


class DroppingSerial:
    """A pyserial stand-in: answers hello and state like the device, then
    fails every read as pyserial does when the USB cable is pulled."""

    def __init__(self, answers=2, error=PYSERIAL_GONE):
        import serial
        self.exc = serial.SerialException(error)
        self.answers = answers
        self.out = b""

    @property
    def in_waiting(self):
        if not self.out and self.answers <= 0:
            raise self.exc
        return len(self.out)

    def read(self, n):
        if not self.out:
            if self.answers <= 0:
                raise self.exc
            return b""
        data, self.out = self.out[:n], self.out[n:]
        return data

    def write(self, data):
        from osada_fw.link.protocol import PROTOCOL_VERSION
        req = json.loads(data)
        self.answers -= 1
        if self.answers < 0:
            return
        if req["cmd"] == "hello":
            reply = {"id": req["id"], "ok": True, "protocol": PROTOCOL_VERSION, "game": "siege"}
        else:
            reply = {"id": req["id"], "ok": True, "state": {"turn": 1}, "seq": 0}
        self.out += (json.dumps(reply) + "\n").encode()

    def close(self):
        pass


def test_a_pulled_cable_is_said_as_a_person_would(monkeypatch):
    pytest.importorskip("serial")
    monkeypatch.setattr(ports, "open_serial", lambda port, **kw: DroppingSerial())
    link = ports.serial_link("/dev/ttyACM0")
    link.connect()
    assert link.mirror.state == {"turn": 1}
    for _ in range(3):
        link.poll()
    assert not link.connected
    assert link.error == ports.DEVICE_GONE
    assert link.error == "the device went away: the USB cable was unplugged or the board reset"
    with pytest.raises(OSError) as ei:
        link.request("state")
    assert "readiness" not in str(ei.value)


@pytest.mark.parametrize("error", [PYSERIAL_GONE, "read failed: [Errno 5] Input/output error"])
def test_osada_state_says_the_device_went_away(monkeypatch, capsys, error):
    pytest.importorskip("serial")
    from osada import cli
    monkeypatch.setattr(ports, "open_serial", lambda port, **kw: DroppingSerial(answers=1, error=error))
    monkeypatch.setattr(ports, "check_port", lambda port: None)
    code = cli.main(["state", "--port", "/dev/ttyACM0"])
    err = capsys.readouterr().err
    assert code != 0
    assert ports.DEVICE_GONE in err
    assert "readiness" not in err and "Errno" not in err
    assert "cannot open" not in err and "/dev/ttyACM0: the device went away" in err   # it did open


def test_the_monitor_session_says_the_device_went_away(monkeypatch):
    pytest.importorskip("serial")
    pytest.importorskip("textual")
    import threading

    from osada.monitor.session import Session
    monkeypatch.setattr(ports, "open_serial", lambda port, **kw: DroppingSerial())
    s = Session(lambda: "/dev/ttyACM0", retry=0.05, transport=ports.SerialTransport)
    t = threading.Thread(target=s.run, daemon=True)
    t.start()
    seen = []
    try:
        while not any(m.kind == "lost" for m in seen):
            seen.append(s.updates.get(timeout=5))
            seen = [m for m in seen if isinstance(m, Session.Status)]
    finally:
        s.stop()
    lost = [m for m in seen if m.kind == "lost"][0]
    assert lost.text == ports.DEVICE_GONE
