"""The link to a device (a Pico over USB, or the simulator's serial port).

    client    the host side of the protocol: Decoder (bytes in, messages out),
              Mirror (the device's state as the host knows it), Link
              (requests and replies over a transport; resyncs)
    ports     the serial ports: a Pico by its USB id, the simulator's link,
              who holds a busy one; pyserial as a Link's transport
    device    what a command needs of a device: open_link() (connected, or
              one sentence why not), device_cmd (a command's errors as its
              exit status), fail()
    simproc   the simulator a tool starts when there is no device
              (`osada sim --headless` as a subprocess)"""
