"""Build and flash: the Pico bundle and putting it on a board (`make
firmware`, `make uf2`, `make flash`: python -m osada.flash.deploy).

    deploy    the bundle (.mpy files, main.py, config.json), the one-file
              install, flashing over serial (mpremote) or onto a BOOTSEL drive
    mpybuild  mpy-cross over a source tree
    uf2       our UF2 writer and reader, and the Pico's flash map
    fsimage   the littlefs image of the Pico's filesystem region
    official  the official MicroPython UF2: found, downloaded once, checked"""
