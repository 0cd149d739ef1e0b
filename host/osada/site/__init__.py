"""`make site`: Osada in the browser with no install (issue 63).  build/site/ is a static
site any static host serves as it is: the table's page (osada/web/static/), which here runs
the device itself -- the firmware's own app in MicroPython's WebAssembly VM in a Web Worker
(files/worker.js), behind the browser's hardware layer (osada_fw/hal/browser.py) -- with a
web app manifest and a service worker (files/sw.js) for offline use and a phone's home
screen.  build.py makes it; reader.py runs in the page's VM, and says the device's lines in
the host's words and pictures (the log, Siege's facts, the other games' pictures)."""
