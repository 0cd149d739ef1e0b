"""The monitor (`osada monitor`, `make run`) on a device that runs the tank
game: it stays up, and its log mirrors each «Кубики» roll with the odds of
its result (texts.describe -> osada.tank_watch), the roll key included."""

import asyncio

from test_monitor import SIZE, SimThread, make_app, until

from osada import client


def test_the_monitor_logs_tank_rolls_with_their_odds(tmp_path):
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    try:
        link = client.serial_link(str(tmp_path / "tty"), timeout=5.0)
        link.connect()
        assert link.request("game", game="tank")["ok"]
        link.close()
        app = make_app(tmp_path / "tty")

        async def run():
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: app.hello is not None, what="connected")
                assert app.hello["game"] == "tank"
                await pilot.press("o")                     # the roll key: the device's current test
                await until(pilot, lambda: any("chance" in ln for ln in app.log_lines), what="the roll's odds")
                line = [ln for ln in app.log_lines if "chance" in ln][0]
                assert line.startswith("fire 6 dice, hit on <= 3, protection 0:")
                assert "you had a" in line or "a 1.6% chance of none" in line
        asyncio.run(run())
    finally:
        dev.close()
