"""`make site` (python -m osada.site): build/site/, served as it is by any static host.

    index.html               the table's page, its catalog and the device's settings in it
    static/                  the page's scripts and style (osada/web/static/)
    worker.js                the device in the page (files/worker.js)
    vm/micropython.mjs .wasm MicroPython's WebAssembly VM, from the installed npm package
    fw/bundle.bin, files.json  the firmware's modules as `make uf2` compiles them (mpy-cross),
                             with the browser's hardware layer, and the host's modules of the
                             page's words and pictures (SITE_MODULES), in one file, and its index
    manifest.webmanifest, icon.svg, sw.js   installable, and offline after one visit

Nothing here is fetched from the network: the VM is the copy `make setup` installed."""

import argparse
import hashlib
import json
import os
import shutil
import sys

from osada.files import paths
from osada.flash import deploy
from osada.flash.mpybuild import compile_file
from osada.web import pagefile
from osada.web.pagefile import FILES, STATIC

OUT = os.path.join(paths.OUTPUT, "site")
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "files")
VM_PACKAGE = ("@micropython", "micropython-webassembly-pyscript")
VM_FILES = ("micropython.mjs", "micropython.wasm")
# The host's modules the page with no host runs (osada.site.reader, and what it imports): the log's
# and the facts' words, each other game's picture but its ring.  They run on MicroPython too:
# tests/host/site/test_reader.py runs the reader in the VM on these and nothing else of the host's.
SITE_MODULES = ("site/reader.py", "words/table.py", "words/texts.py", "words/game_names.py", "words/tank_rolls.py",
                "tank/dice_picture.py", "tank/rolls.py", "victory/picture.py", "victory/toss_words.py",
                "warchest/picture.py", "warchest/device_words.py", "sim/warchest_lines.py")
DEVICE = {"worker": "worker.js", "offline": "sw.js"}
MANIFEST = {"name": "Osada", "short_name": "Osada", "description": "The table's dice, enemy pool and referee",
            "start_url": "./", "scope": "./", "display": "standalone", "orientation": "any",
            "background_color": "#101216", "theme_color": "#101216",
            "icons": [{"src": "icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]}
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="18" '
        'fill="#101216"/><g fill="none" stroke-width="10">%s</g></svg>')
SECTOR_RGB = ("#8b1a1a", "#8b1a1a", "#1d6b2a", "#1d6b2a", "#1f4596", "#1f4596")


class SiteError(Exception):
    """The site cannot be built: one sentence why."""


def vm_dir():
    root = paths.REPO or os.getcwd()
    d = os.path.join(root, "node_modules", *VM_PACKAGE)
    if not all(os.path.isfile(os.path.join(d, f)) for f in VM_FILES):
        raise SiteError("MicroPython's WebAssembly VM is not installed (%s): run `make setup`" % d)
    return d


def _icon():
    import math
    arcs = []
    for s, colour in enumerate(SECTOR_RGB):                    # the board's six sectors round the city
        a0, a1 = math.radians(-90 + s * 60 + 4), math.radians(-90 + s * 60 + 56)
        x0, y0, x1, y1 = 48 + 32 * math.cos(a0), 48 + 32 * math.sin(a0), 48 + 32 * math.cos(a1), 48 + 32 * math.sin(a1)
        arcs.append('<path stroke="%s" d="M%.1f %.1f A32 32 0 0 1 %.1f %.1f"/>' % (colour, x0, y0, x1, y1))
    return ICON % "".join(arcs)


def _page():
    with open(os.path.join(STATIC, "index.html"), "rb") as f:
        page = f.read()
    page = page.replace(b'"/static/', b'"static/')                # relative: any folder serves it
    page = page.replace(b'<script src="static/app.js" defer></script>',
                        b'<script src="static/device.js" defer></script>\n<script src="static/app.js" defer></script>')
    page = page.replace(b"</head>", b'<link rel="manifest" href="manifest.webmanifest">\n'
                                    b'<link rel="icon" href="icon.svg" type="image/svg+xml">\n</head>', 1)
    return pagefile.with_blocks(page, [("catalog", pagefile.catalog_json()), ("device", json.dumps(DEVICE))])


def modules(dst):
    """The modules the device in the page runs, into the folder `dst` (wiped first): the firmware's
    as `make uf2` compiles them (deploy.build, with the browser's hardware layer) and the host's
    SITE_MODULES (osada/...), compiled the same way."""
    deploy.build(out=dst, quiet=True, browser=True)
    host = paths.package_dir("osada")
    for rel in SITE_MODULES:                                       # the page's words and pictures
        compile_file(os.path.join(host, rel), os.path.join(dst, "osada", rel[:-3] + ".mpy"),
                     "osada." + rel[:-3].replace("/", "."))


def _firmware(fw):
    """The device's modules (modules()) in one file (fw/bundle.bin: the page fetches one file, not
    seventy) and its index fw/files.json ([path, offset, length])."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        bundle = os.path.join(tmp, "bundle")
        modules(bundle)
        names = sorted(os.path.relpath(os.path.join(d, n), bundle).replace(os.sep, "/")
                       for d, _dirs, ns in os.walk(bundle) for n in ns if n != "main.py")   # (the page starts the app)
        os.makedirs(fw)
        index, at = [], 0
        with open(os.path.join(fw, "bundle.bin"), "wb") as out:
            for name in names:
                with open(os.path.join(bundle, name), "rb") as f:
                    data = f.read()
                out.write(data)
                index.append([name, at, len(data)])
                at += len(data)
    with open(os.path.join(fw, "files.json"), "w") as f:
        json.dump(index, f)


def build(out=OUT, quiet=False):
    """Write the site into `out` (wiped first); returns its files (paths relative to it)."""
    vm = vm_dir()
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "static"))
    with open(os.path.join(out, "index.html"), "wb") as f:
        f.write(_page())
    for name in sorted(FILES):
        if name != "index.html":
            shutil.copy(os.path.join(STATIC, name), os.path.join(out, "static", name))
    shutil.copy(os.path.join(HERE, "worker.js"), os.path.join(out, "worker.js"))
    os.makedirs(os.path.join(out, "vm"))
    for name in VM_FILES:
        shutil.copy(os.path.join(vm, name), os.path.join(out, "vm", name))
    _firmware(os.path.join(out, "fw"))
    with open(os.path.join(out, "manifest.webmanifest"), "w") as f:
        json.dump(MANIFEST, f, indent=1)
    with open(os.path.join(out, "icon.svg"), "w") as f:
        f.write(_icon())
    files = sorted(os.path.relpath(os.path.join(d, n), out).replace(os.sep, "/")
                   for d, _dirs, names in os.walk(out) for n in names)
    digest = hashlib.sha256()
    for rel in files:
        with open(os.path.join(out, rel), "rb") as f:
            digest.update(rel.encode() + b"\0" + f.read())
    with open(os.path.join(HERE, "sw.js"), encoding="utf-8") as f:
        sw = f.read()
    sw = sw.replace("__VERSION__", digest.hexdigest()[:16]).replace("__FILES__", json.dumps(["./"] + files))
    with open(os.path.join(out, "sw.js"), "w", encoding="utf-8") as f:
        f.write(sw)
    files.append("sw.js")
    if not quiet:
        size = sum(os.path.getsize(os.path.join(out, rel)) for rel in files)
        print("built %s: %d files, %.0f kB; serve that folder as it is (python3 -m http.server -d %s)"
              % (paths.shown(out), len(files), size / 1000, paths.shown(out)))
    return files


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m osada.site", description="Build Osada's static site (build/site/).")
    p.add_argument("--out", default=OUT, help="the folder to write (wiped first; default build/site)")
    args = p.parse_args(argv)
    try:
        build(args.out)
    except (SiteError, deploy.BuildError) as exc:
        print("make site: %s" % exc, file=sys.stderr)
        return 2
    return 0
