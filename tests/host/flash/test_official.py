"""osada/flash/official.py: finding, downloading and checking the official
MicroPython UF2 for the Pico.  Every image here is synthetic (made with
osada.flash.uf2), every download comes from a local HTTP server on 127.0.0.1, and
the cache lives in tmp_path."""

import http.server
import io
import os
import socket
import subprocess
import sys
import threading

import pytest
from uf2_support import BANNER
from uf2_support import synthetic_firmware as image

from osada.flash import official, uf2

GOOD = image()


@pytest.fixture(autouse=True)
def sandbox(tmp_path, monkeypatch):
    """No user cache, no firmware variable, no proxy between us and 127.0.0.1."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(official.ENV, raising=False)
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "*")
    monkeypatch.setenv("NO_PROXY", "*")


def write(path, data):
    path.write_bytes(data)
    return str(path)


def cache_files():
    folder = official.cache_dir()
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


# --- check() ---------------------------------------------------------------

def test_the_pinned_release_is_where_micropython_puts_it():
    assert official.URL == "https://micropython.org/resources/firmware/RPI_PICO-20260406-v1.28.0.uf2"
    assert official.FILENAME == "RPI_PICO-20260406-v1.28.0.uf2"
    assert (official.VERSION, official.BOARD, official.ENV) == ("1.28.0", "RPI_PICO", "OSADA_FIRMWARE_UF2")


def test_a_good_image_gives_its_version():
    assert official.check(GOOD) == "1.28.0"
    assert official.check(bytearray(GOOD)) == "1.28.0"


def test_a_local_build_with_another_date_is_accepted():
    data = image(BANNER.replace(b"2026-04-06", b"2026-05-17"), reverse=False)
    assert official.check(data) == "1.28.0"


def test_the_firmware_may_reach_up_to_the_filesystem():
    size = 16 * 1024
    assert official.check(image(addr=uf2.FS_ADDR - size, size=size)) == "1.28.0"


@pytest.mark.parametrize("data,words", [
    (b"<html>Not here</html>", ["not an RP2040 UF2", "RPI_PICO"]),
    (b"", ["not an RP2040 UF2"]),
    (GOOD[:-512] + b"\0" * 512, ["not an RP2040 UF2"]),
    (image(family=0xE48BFF59), ["RP2350", "Pico 2", "Raspberry Pi Pico (board RPI_PICO, RP2040) only"]),
    (image(family=0x12345678), ["not an RP2040 UF2", "family 0x12345678"]),
    (image(BANNER.replace(b"v1.28.0", b"v1.27.0")), ["MicroPython 1.27.0", "needs MicroPython 1.28.0", official.URL,
                                                     "https://micropython.org/download/RPI_PICO/"]),
    (image(BANNER.replace(b"v1.28.0", b"v1.28.0-preview.12.gabcdef")), ["MicroPython 1.28.0-preview.12.gabcdef"]),
    (image(BANNER.replace(b"Pico with", b"Pico W with")), ["Pico W", "RPI_PICO_W",
                                                           "Raspberry Pi Pico (board RPI_PICO, RP2040) only"]),
    (image(BANNER.replace(b"Raspberry Pi Pico with RP2040", b"Raspberry Pi Pico 2 with RP2350")), ["Pico 2"]),
    (image(BANNER.replace(b"Raspberry Pi Pico with RP2040", b"Arduino Nano RP2040 Connect")), ["another board"]),
    (image(b"Hello, World!"), ["not MicroPython firmware"]),
    (image(addr=uf2.FS_ADDR - 0x1000, size=0x2000), ["0x100a0000", "filesystem"]),
    (image(addr=uf2.FS_ADDR), ["writes at 0x100a0000"]),
    (image(addr=0x20000000), ["writes at 0x20000000"]),
], ids=["html", "empty", "torn", "rp2350-family", "other-family", "v1.27.0", "preview", "pico-w", "pico-2-name",
        "other-board", "no-banner", "over-the-fs", "at-the-fs", "in-ram"])
def test_refused(data, words):
    with pytest.raises(official.FirmwareError) as err:
        official.check(data)
    message = str(err.value)
    for word in words:
        assert word in message
    assert "\n" not in message


def test_check_file_names_the_path(tmp_path):
    good = write(tmp_path / "fw.uf2", GOOD)
    assert official.check_file(good) == "1.28.0"
    assert official.check_file(tmp_path / "fw.uf2") == "1.28.0"          # a pathlib path too
    missing = str(tmp_path / "nope.uf2")
    with pytest.raises(official.FirmwareError, match="nope.uf2 does not exist"):
        official.check_file(missing)
    with pytest.raises(official.FirmwareError, match="cannot read .*" + tmp_path.name):
        official.check_file(str(tmp_path))                               # a directory
    bad = write(tmp_path / "bad.uf2", b"x" * 512)
    with pytest.raises(official.FirmwareError, match="bad.uf2 is not an RP2040 UF2"):
        official.check_file(bad)


# --- the cache and find() --------------------------------------------------

def test_cache_dir(tmp_path, monkeypatch):
    assert official.cache_dir() == os.path.join(str(tmp_path / "cache"), "osada", "firmware")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert official.cache_dir() == os.path.join(str(tmp_path / "home"), ".cache", "osada", "firmware")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")                 # ignored, as the XDG spec says
    assert official.cache_dir() == os.path.join(str(tmp_path / "home"), ".cache", "osada", "firmware")


def test_cached_returns_only_a_valid_file():
    assert official.cached() is None
    os.makedirs(official.cache_dir())
    path = os.path.join(official.cache_dir(), official.FILENAME)
    with open(path, "wb") as f:
        f.write(image(BANNER.replace(b"v1.28.0", b"v1.27.0")))
    assert official.cached() is None
    with open(path, "wb") as f:
        f.write(GOOD)
    assert official.cached() == path


def test_find(tmp_path, monkeypatch):
    assert official.find() is None
    mine = write(tmp_path / "mine.uf2", GOOD)
    assert official.find(mine) == mine
    bad = write(tmp_path / "bad.uf2", b"not firmware")
    with pytest.raises(official.FirmwareError, match="bad.uf2"):
        official.find(bad)
    with pytest.raises(official.FirmwareError, match="missing.uf2 does not exist"):
        official.find(str(tmp_path / "missing.uf2"))

    monkeypatch.setenv(official.ENV, mine)
    assert official.find() == mine
    other = write(tmp_path / "other.uf2", GOOD)
    assert official.find(other) == other                                # an explicit path comes first
    monkeypatch.setenv(official.ENV, bad)
    with pytest.raises(official.FirmwareError, match="bad.uf2 .*from OSADA_FIRMWARE_UF2"):
        official.find()

    monkeypatch.delenv(official.ENV)
    os.makedirs(official.cache_dir())
    cached = write(tmp_path / "cache" / "osada" / "firmware" / official.FILENAME, GOOD)
    assert official.find() == cached


# --- get(): downloads from a local server ----------------------------------

class Server:
    """http.server on 127.0.0.1 (port 0) in a thread: /fw.uf2 is the good
    image, /bad.uf2 is not firmware, /short.uf2 promises more than it sends,
    anything else is a 404.  `hits` counts the requests."""

    def __init__(self):
        self.hits = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.hits.append(self.path)
                body = {"/fw.uf2": GOOD, "/bad.uf2": b"<html>a captive portal</html>"}.get(self.path)
                if self.path == "/short.uf2":
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(GOOD)))
                    self.end_headers()
                    self.wfile.write(GOOD[:len(GOOD) // 2])
                    self.close_connection = True
                    return
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.httpd.server_address[1], path)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_get_downloads_once_into_the_cache(server):
    out = io.StringIO()
    path = official.get(url=server.url("/fw.uf2"), out=out, timeout=10)
    assert path == os.path.join(official.cache_dir(), official.FILENAME)
    with open(path, "rb") as f:
        assert f.read() == GOOD
    assert cache_files() == [official.FILENAME]                          # no temporary file left
    text = out.getvalue()
    assert "\r" not in text and "100%" in text and official.FILENAME in text
    assert [line for line in text.splitlines() if "%" in line] == [
        "   25%  32/128 KB", "   50%  64/128 KB", "   75%  96/128 KB", "  100%  128/128 KB"]
    assert server.hits == ["/fw.uf2"]

    again = io.StringIO()
    assert official.get(url=server.url("/fw.uf2"), out=again) == path
    assert server.hits == ["/fw.uf2"] and again.getvalue() == ""          # the cache, not the server


def test_get_draws_one_line_on_a_terminal(server):
    out = Tty()
    official.get(url=server.url("/fw.uf2"), out=out, timeout=10)
    text = out.getvalue()
    assert text.startswith("\rdownloading %s  [" % official.FILENAME) and text.endswith("\n")
    assert text.count("\n") == 1 and text.count("\r") > 2
    last = text.rstrip("\n").split("\r")[-1]
    assert last == "downloading %s  [%s]  100%%  128/128 KB" % (official.FILENAME, "#" * 30)


def test_get_prefers_a_given_file_to_the_network(server, tmp_path, monkeypatch):
    mine = write(tmp_path / "mine.uf2", GOOD)
    assert official.get(mine, url=server.url("/fw.uf2")) == mine
    monkeypatch.setenv(official.ENV, mine)
    assert official.get(url=server.url("/fw.uf2")) == mine
    monkeypatch.setenv(official.ENV, str(tmp_path / "gone.uf2"))
    with pytest.raises(official.FirmwareError, match="gone.uf2"):          # a bad choice is not downloaded over
        official.get(url=server.url("/fw.uf2"))
    assert server.hits == [] and cache_files() == []


def test_get_replaces_an_invalid_cached_file(server):
    os.makedirs(official.cache_dir())
    path = os.path.join(official.cache_dir(), official.FILENAME)
    with open(path, "wb") as f:
        f.write(GOOD[:1000])
    assert official.get(url=server.url("/fw.uf2"), out=io.StringIO()) == path
    assert official.cached() == path and cache_files() == [official.FILENAME]


def assert_failed_cleanly(err, url, reason):
    message = str(err.value)
    assert message.startswith("could not download the MicroPython 1.28.0 firmware")
    assert url in message and reason in message
    assert official.URL in message and "https://micropython.org/download/RPI_PICO/" in message
    assert "make flash FIRMWARE=/path/to/RPI_PICO-20260406-v1.28.0.uf2" in message
    assert "OSADA_FIRMWARE_UF2=" in message and "\n" not in message
    assert cache_files() == []


@pytest.mark.parametrize("path,reason", [
    ("/missing.uf2", "HTTP 404"),
    ("/bad.uf2", "not an RP2040 UF2"),
    ("/short.uf2", "of %d bytes" % len(GOOD)),
])
def test_a_failed_download_leaves_nothing(server, path, reason):
    url = server.url(path)
    out = Tty()
    with pytest.raises(official.FirmwareError) as err:
        official.get(url=url, out=out, timeout=10)
    assert_failed_cleanly(err, url, reason)
    assert not out.getvalue() or out.getvalue().endswith("\n")          # the error starts on a line of its own


def test_a_closed_port_leaves_nothing():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))                                      # bound, never listening: refused
        url = "http://127.0.0.1:%d/fw.uf2" % sock.getsockname()[1]
        with pytest.raises(official.FirmwareError) as err:
            official.get(url=url, out=io.StringIO(), timeout=10)
    assert_failed_cleanly(err, url, "refused")


def test_ctrl_c_during_the_download_leaves_nothing(server):
    class Interrupting(io.StringIO):
        def write(self, text):
            if "%" in text:
                raise KeyboardInterrupt
            return super().write(text)

    url = server.url("/fw.uf2")
    with pytest.raises(official.FirmwareError) as err:
        official.get(url=url, out=Interrupting(), timeout=10)
    assert_failed_cleanly(err, url, "interrupted")


# --- the command line ------------------------------------------------------

def test_cli(server, tmp_path, monkeypatch, capsys):
    assert official.main(["--offline"]) == 2
    assert capsys.readouterr().err.startswith("error: no MicroPython 1.28.0 firmware")

    mine = write(tmp_path / "mine.uf2", GOOD)
    assert official.main(["--firmware", mine, "--offline"]) == 0
    assert capsys.readouterr().out == mine + "\n"
    bad = write(tmp_path / "bad.uf2", b"nope")
    assert official.main(["--firmware", bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the firmware file %s is not an RP2040 UF2" % bad) and err.count("\n") == 1

    monkeypatch.setattr(official, "URL", server.url("/missing.uf2"))
    assert official.main([]) == 2
    assert "HTTP 404" in capsys.readouterr().err
    monkeypatch.setattr(official, "URL", server.url("/fw.uf2"))
    assert official.main([]) == 0
    out = capsys.readouterr()
    assert out.out == os.path.join(official.cache_dir(), official.FILENAME) + "\n" and "100%" in out.err
    assert official.main(["--offline"]) == 0
    assert capsys.readouterr().out == os.path.join(official.cache_dir(), official.FILENAME) + "\n"


def test_python_dash_m(tmp_path):
    mine = write(tmp_path / "mine.uf2", GOOD)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop(official.ENV, None)
    run = [sys.executable, "-m", "osada.flash.official", "--offline"]
    proc = subprocess.run(run, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and proc.stdout == ""
    proc = subprocess.run(run + ["--firmware", mine], env=env, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, mine + "\n")
