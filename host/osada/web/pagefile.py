"""The page's file with its data blocks in it: the catalog (the facts it draws with, from
their one home in Python) and, where there is one, the first snapshot or the device in the
page's settings.  JSON blocks, which no browser runs; "</" escaped inside them.  Used by the
web host (server.py) and the static site (osada/site/)."""

import json
import os

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
# the page's files (device.js: the device in the page, which the static site's page loads)
FILES = {"index.html": "text/html", "app.js": "text/javascript", "siege.js": "text/javascript",
         "ring.js": "text/javascript", "device.js": "text/javascript", "style.css": "text/css"}


def catalog_json():
    from .catalog import catalog
    return json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"))


def inert(text):
    """JSON text made safe inside a <script> block: no "</" or "<!--" in it (still the same JSON)."""
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


def with_blocks(page, blocks):
    """The page (bytes) with a <script id=… type="application/json"> for each (id, JSON text)
    of `blocks` before its </body>."""
    tags = "".join('<script id="%s" type="application/json">%s</script>\n' % (name, inert(text))
                   for name, text in blocks)
    return page.replace(b"</body>", tags.encode("utf-8") + b"</body>", 1)
