"""F14: the monitor's threat forecast panel, against the simulator: the odds of
the state on the board, stamped with its turn and the actions of that turn, bounds first;
never an answer for another state; `f` hides and shows it."""

import asyncio

from test_monitor import SimThread, in_sync, make_app, until, widget_text

from osada.siege.forecast import forecast
from shared_rules.siege.public import public_state


def test_f14_the_panel_shows_this_states_forecast_and_f_toggles_it(tmp_path):
    dev = SimThread(tmp_path / "tty", tmp_path / "st", seed=1)
    app = make_app(tmp_path / "tty", forecast=True)

    def answer():
        view = app.view
        return view.live.current(app.state, view.setup) if view.live is not None else None

    async def run():
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: in_sync(app, dev), what="the first sync")
            await until(pilot, lambda: answer() is not None, timeout=40.0, what="the first answer")
            await until(pilot, lambda: "Forecast for turn 1, 0 actions into it" in widget_text(app, "#aside"),
                        what="the panel: %s" % widget_text(app, "#aside"))
            r = answer()
            with dev.lock:
                game = dev.sim.app.siege.game
                want = forecast(public_state(game), game.setup_dict(), bounds_only=not r.forecast.exact, k=r.k or 1)
            assert r.forecast.values == want.values            # the odds of the state on the board
            text = widget_text(app, "#aside")
            for label, value in r.rows():
                assert value in text, (label, value, text)

            await pilot.press("F")                               # F13: the same answer on the ring, 3 s
            await until(pilot, lambda: any(type(a).__name__ == "Show" for a in dev.sim.app.siege.anims),
                        what="the ring's forecast")
            await until(pilot, lambda: "the forecast is on the board's ring for 3 s" in widget_text(app, "#status"),
                        what="F's acknowledgement")

            await pilot.press("h")                               # a hit: a new phase-4 state
            await until(pilot, lambda: in_sync(app, dev) and app.seq == 1, what="the hit")
            for _ in range(600):             # never the old state's answer (a loaded machine: up to 30 s, nice 19)
                text = widget_text(app, "#aside")
                assert "0 actions" not in text, text
                if "Forecast for turn 1, 1 action into it\n" in text:
                    break
                await pilot.pause(0.05)
            else:
                raise AssertionError("no forecast for the new state: %s" % text)

            assert app.main.has_class("-aside") and not app.main.query_one("#keys").display
            await pilot.resize_terminal(100, 30)                 # no room beside the board: one line, L and E
            await until(pilot, lambda: "Forecast: turn 1, 1 action into it" in widget_text(app, "#info")
                        and "\nlost " in widget_text(app, "#info"),
                        what="the one line: %s" % widget_text(app, "#info"))
            await pilot.resize_terminal(120, 40)

            await pilot.press("f")
            await pilot.press("F")                               # hidden: nothing to send, and it says so
            assert "no forecast to show on the ring" in widget_text(app, "#status")
            await until(pilot, lambda: "Forecast" not in widget_text(app, "#aside"), what="hidden")
            assert app.view.live.proc is None                    # hidden: no worker runs
            assert not app.main.has_class("-aside") and app.main.query_one("#keys").display
            await pilot.press("f")
            await until(pilot, lambda: "Forecast for turn 1, 1 action into it\n" in widget_text(app, "#aside"),
                        timeout=40.0, what="shown again")

    try:
        asyncio.run(run())
    finally:
        app.shutdown()
        dev.close()
    assert app.view_for("siege").live.proc is None               # quitting stops the worker
