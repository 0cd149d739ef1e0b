"""What is hidden stays hidden on the shared screens (issue 59): every snapshot
of a scripted field marshal's game, as each page receives it (a watcher, a
player with the PIN, the field marshal with his own PIN), and every snapshot
the host makes: the PINs are in none, the marshal's hand only in his; the
game's seed (the pool's order) in none; no local path either."""

import asyncio
import json
import re

import pytest

aiohttp = pytest.importorskip("aiohttp")

from osada.web import roles  # noqa: E402
from shared_rules.siege.autoplay import play  # noqa: E402
from tests.support.web_rig import PIN, sim_and_host  # noqa: E402

MARSHAL_PIN = "737373"
SETUP = {"players": 3, "mode": "marshal", "seed": 31}
@pytest.fixture
def rig():
    with sim_and_host("web-roles", marshal_pin=MARSHAL_PIN) as (dev, host):
        published = []
        real = host.server.publish

        def publish(snaps):
            published.append(json.loads(json.dumps(snaps)))
            real(snaps)
        host.server.publish = publish
        yield dev, host, published


def _marshal_game(n):
    acts = []
    play(SETUP, 31, keep=lambda g, a, e: acts.append(a), skill=2)
    return acts[:n]


def _hand_listed(role, snap):
    """Checks one snapshot a page of `role` got; whether it lists the marshal's hand (his tokens
    in its state and in its words)."""
    text = json.dumps(snap, ensure_ascii=False)
    assert PIN not in text and MARSHAL_PIN not in text, role
    assert "seed" not in json.dumps(snap["state"])
    assert not re.search(r"(?<![\w.:/~])/(tmp|home|root|work)/", text), (role, "a local path")
    words = dict(snap["facts"]).get("Field marshal's hand", "")
    in_state = "marshal_hand" in ((snap["state"] or {}).get("game") or {})
    assert in_state == bool(words and "his alone" not in words), (role, words)
    return in_state


async def _play_with_three_pages(host, acts):
    """The game played through the host's link while a watcher, a player and the marshal
    watch: every snapshot each page received."""
    got = {roles.WATCHER: [], roles.PLAYER: [], roles.MARSHAL: []}
    async with aiohttp.ClientSession() as http:
        pages = {}
        for role, pin in ((roles.WATCHER, None), (roles.PLAYER, PIN), (roles.MARSHAL, MARSHAL_PIN)):
            ws = await http.ws_connect(host.url + "ws")
            if pin is not None:
                await ws.send_str(json.dumps({"t": "pin", "pin": pin}))
            pages[role] = ws

        async def collect(role, ws):
            try:
                while True:
                    msg = await asyncio.wait_for(ws.receive(), 1.5)
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        return
                    data = json.loads(msg.data)
                    if data.get("t") == "snap":
                        got[role].append(data)
            except asyncio.TimeoutError:
                return
        tasks = [asyncio.ensure_future(collect(r, w)) for r, w in pages.items()]
        host.app.call_from_thread(host.app.send, "new", **SETUP)
        for a in acts:
            await asyncio.sleep(0.05)
            host.app.call_from_thread(host.app.send, "act", action=a)
        await asyncio.gather(*tasks)
        for ws in pages.values():
            await ws.close()
    return got


def test_a_marshal_game_s_hand_and_the_pins_reach_only_who_may_see_them(rig):
    dev, host, published = rig
    acts = _marshal_game(40)
    assert any(a["do"] == "marshal_play" for a in acts)

    got = asyncio.run(_play_with_three_pages(host, acts))
    hand_seen = False
    for role, snaps in got.items():
        assert len(snaps) > 10, role
        for snap in snaps:
            listed = _hand_listed(role, snap)
            if role == roles.MARSHAL:
                hand_seen = hand_seen or listed
            else:
                assert not listed, "the hand on a %s's page" % role
        if role != roles.MARSHAL:
            assert any("his alone" in dict(s["facts"]).get("Field marshal's hand", "") for s in snaps), role
    assert hand_seen, "the field marshal's page shows his hand"
    assert published
    for snaps in published:                            # everything the host made, every role
        assert set(snaps) == set(roles.ROLES)
        for role, snap in snaps.items():
            text = json.dumps(snap, ensure_ascii=False)
            assert PIN not in text and MARSHAL_PIN not in text
            assert snap["role"] == role and snap["control"] == roles.may_act(role)
