"""«День Победы»'s combat (shared_rules/victory/combat.py, air.py, units.py):
the spec's worked examples 5-8 word for word with the rulebook's values (V40),
each rule of V17-V38 the calculator applies, and the maximal sets against a
brute force over every distribution of attack."""

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_rules.errors import RuleError
from shared_rules.victory.combat import Combat, deck_attack, resource_attack
from shared_rules.victory.units import Unit


def att(name, utype, a, d, **kw):
    return Unit(name, "att", utype, a, d, **kw)


def dfn(name, utype, a, d, **kw):
    return Unit(name, "def", utype, a, d, **kw)


def outcome(*units):
    """{side: [every maximal set the side can destroy, as sets]} of a one-part combat."""
    c = Combat(units)
    assert len(c.parts) == 1
    return {s: [set(o) for o in r.options] for s, r in c.parts[0].sides.items()}


def parts(*units):
    """{part kind: {side: options}} of a combat."""
    return {p.kind: {s: [set(o) for o in r.options] for s, r in p.sides.items()} for p in Combat(units).parts}


# the rulebook's units (V40)
def medium(side):
    return Unit("medium tank", side, "arm", 3, 3)


def stug():
    return att("Sturmgeschütz III", "arm", 4, 3, kind="AT SPG", mods=[("arm", 1, 1)])


def kv(**kw):
    return dfn("КВ-1с", "arm", 3, 4, kind="heavy tank", **kw)


def zis3():
    return dfn("ЗИС-3", "art", 2, 2, kind="anti-tank gun", mods=[("arm", 3, 2)])


def rifles():
    return dfn("усиленная стрелковая рота", "inf", 3, 2)


# ------------------------------------------------ worked example 5: one against one (V28)

def test_v28_v40_worked_example_5_medium_tank_one_against_one():
    assert outcome(medium("att"), dfn("armoured car", "arm", 2, 2)) == {"att": [{"armoured car"}], "def": [set()]}
    assert outcome(medium("att"), dfn("heavy tank", "arm", 5, 5)) == {"att": [set()], "def": [{"medium tank"}]}
    assert outcome(medium("att"), dfn("infantry", "inf", 3, 2)) == {"att": [{"infantry"}], "def": [{"medium tank"}]}
    assert outcome(att("A", "arm", 3, 4), dfn("B", "arm", 3, 4)) == {"att": [set()], "def": [set()]}


# ------------------------------------------------ worked example 6: SU-85 and the Tiger (V27)

def su85():
    return att("СУ-85", "arm", 4, 3, kind="AT SPG", mods=[("arm", 1, 1)])


def tiger():
    return dfn("«Тигр»", "arm", 5, 5, kind="heavy tank")


def pak40():
    return dfn("PAK-40", "art", 2, 2, kind="anti-tank gun", mods=[("arm", 3, 2)])


def test_v27_v40_worked_example_6_su85_against_the_tiger_alone():
    c = Combat([su85(), tiger()])
    su = c.fighters["СУ-85"]
    assert (su.attack, su.defence) == (5, 4)
    assert outcome(su85(), tiger()) == {"att": [{"«Тигр»"}], "def": [{"СУ-85"}]}      # both destroyed


def test_v27_v28_v40_worked_example_6_tiger_supported_by_pak40():
    c = Combat([su85(), tiger(), pak40()])
    assert (c.fighters["СУ-85"].attack, c.fighters["СУ-85"].defence) == (4, 3)         # mixed types: no modifier
    assert (c.fighters["PAK-40"].attack, c.fighters["PAK-40"].defence) == (5, 4)       # it faces armour alone
    sides = c.parts[0].sides
    assert (sides["def"].pool, sides["att"].pool) == (10, 4)
    assert [set(o) for o in sides["def"].options] == [{"СУ-85"}]
    assert [set(o) for o in sides["att"].options] == [{"PAK-40"}]                      # only PAK-40: the Tiger needs 5


# ------------------------------------------------ worked example 7: StuG III and the KV (V27, V23)

def test_v27_v40_worked_example_7_stug_against_the_kv():
    c = Combat([stug(), kv()])
    assert (c.fighters["Sturmgeschütz III"].attack, c.fighters["Sturmgeschütz III"].defence) == (5, 4)
    assert outcome(stug(), kv()) == {"att": [{"КВ-1с"}], "def": [set()]}


def test_v27_v28_v40_worked_example_7_kv_supported_by_zis3():
    c = Combat([stug(), kv(), zis3()])
    assert (c.fighters["Sturmgeschütz III"].attack, c.fighters["Sturmgeschütz III"].defence) == (4, 3)
    assert (c.fighters["ЗИС-3"].attack, c.fighters["ЗИС-3"].defence) == (5, 4)
    assert c.parts[0].sides["def"].pool == 8
    assert outcome(stug(), kv(), zis3()) == {"att": [{"КВ-1с"}, {"ЗИС-3"}], "def": [{"Sturmgeschütz III"}]}


def test_v28_v40_worked_example_7_kv_supported_by_the_rifle_company():
    got = outcome(stug(), kv(), rifles())
    assert got == {"att": [{"КВ-1с"}, {"усиленная стрелковая рота"}], "def": [{"Sturmgeschütz III"}]}   # 4 < 6


def test_v28_v40_worked_example_7_sturmgrenadier():
    grenadier = att("Sturmgrenadier", "inf", 3, 3)
    assert outcome(grenadier, rifles()) == {"att": [{"усиленная стрелковая рота"}], "def": [{"Sturmgrenadier"}]}
    assert outcome(att("Sturmgrenadier", "inf", 3, 3), kv()) == {"att": [set()], "def": [{"Sturmgrenadier"}]}


def test_v23_v40_worked_example_7_stug_against_a_turned_kv():
    c = Combat([stug(), kv(turned=True)])
    assert (c.fighters["КВ-1с"].attack, c.fighters["КВ-1с"].defence) == (0, 4)
    assert outcome(stug(), kv(turned=True)) == {"att": [{"КВ-1с"}], "def": [set()]}


# ------------------------------------------------ worked example 8: Ju-87, escort, interception (V37, V38)

def stuka():
    return att("Ju-87 STUKA", "air", 1, 2, kind="dive bomber", bombing=5)


def katyusha():
    return dfn("«Катюша»", "art", 0, 1, kind="rocket launcher")


def test_v37_v38_v40_worked_example_8_escorted_stuka_bombs_the_katyusha():
    got = parts(stuka(), att("escort", "air", 3, 3, binds="fighter"), katyusha(),
                dfn("fighter", "air", 3, 3, intercepts="Ju-87 STUKA"))
    assert got["bombing"] == {"att": [{"«Катюша»"}], "def": [set()]}           # 5 >= 1; Ju-87 unharmed
    assert got["dogfight"] == {"att": [{"fighter"}], "def": [{"escort"}]}       # both fighters destroyed


def test_v38_v40_worked_example_8_no_escort_the_stuka_is_intercepted():
    c = Combat([stuka(), katyusha(), dfn("fighter", "air", 3, 3, intercepts="Ju-87 STUKA")])
    got = {p.kind: {s: [set(o) for o in r.options] for s, r in p.sides.items()} for p in c.parts}
    assert got["interception"] == {"att": [set()], "def": [{"Ju-87 STUKA"}]}    # 3 >= 2; 1 < 3
    assert [p.names for p in c.parts if p.kind == "untouched"] == [["«Катюша»"]]
    assert c.fighters["Ju-87 STUKA"].attack == 1                               # its A, the bombing unused


def test_v38_v40_worked_example_8_two_defending_fighters():
    c = Combat([stuka(), att("escort", "air", 3, 3, binds="fighter 1"), katyusha(),
                dfn("fighter 1", "air", 3, 3, intercepts="Ju-87 STUKA"),
                dfn("fighter 2", "air", 3, 3, intercepts="Ju-87 STUKA")])
    kinds = {p.kind: p for p in c.parts}
    assert set(kinds) == {"interception", "dogfight", "untouched"}
    assert kinds["interception"].names == ["Ju-87 STUKA", "fighter 2"]
    assert [set(o) for o in kinds["interception"].sides["def"].options] == [{"Ju-87 STUKA"}]
    assert kinds["untouched"].names == ["«Катюша»"]


# ------------------------------------------------ the rules the calculator applies

def test_v27_a_modifier_needs_every_opponent_of_its_type_or_kind():
    by_kind = att("hunter", "arm", 2, 2, mods=[("heavy tank", 2, 0)])
    assert Combat([by_kind, tiger()]).fighters["hunter"].attack == 4
    assert Combat([att("hunter", "arm", 2, 2, mods=[("heavy tank", 2, 0)]), tiger(),
                   dfn("T-34", "arm", 3, 3, kind="medium tank")]).fighters["hunter"].attack == 2
    assert Combat([att("hunter", "arm", 2, 2, mods=[("armour", 1, 1)]), tiger()]).fighters["hunter"].defence == 3


def test_v23_a_turned_unit_keeps_defence_and_modifiers_attack_stays_zero():
    c = Combat([medium("att"), dfn("gun", "art", 2, 2, kind="anti-tank gun", mods=[("arm", 3, 2)], turned=True,
                                   support=2)])
    assert (c.fighters["gun"].attack, c.fighters["gun"].defence) == (0, 4)


def test_v34_artillery_support_adds_attack_for_this_combat():
    c = Combat([att("T-34", "arm", 3, 3, support=2), tiger()])
    assert c.fighters["T-34"].attack == 5
    assert outcome(att("T-34", "arm", 3, 3, support=2), tiger()) == {"att": [{"«Тигр»"}], "def": [{"T-34"}]}


@pytest.mark.parametrize("unit", [
    lambda: dfn("howitzer", "art", 3, 2, support=1),            # a 2nd-line unit
    lambda: att("fighter", "air", 3, 3, support=1),             # aviation
])
def test_v34_support_goes_to_a_1st_line_unit_only(unit):
    with pytest.raises(RuleError) as exc:
        unit()
    assert exc.value.rule == "V34"


def test_v29_damage_taken_earlier_in_the_wave_adds_up():
    c = Combat([medium("att"), dfn("heavy tank", "arm", 5, 5, damage=2)])
    assert c.fighters["heavy tank"].need == 3
    assert c.parts[0].sides["att"].options == [("heavy tank",)]


def test_v17_lines_by_type_and_the_anti_tank_exception():
    assert dfn("PAK-40", "art", 2, 2, kind="anti-tank gun").line == 1
    assert dfn("ЗИС-3", "art", 2, 2, kind="противотанковое орудие").line == 1
    assert dfn("howitzer", "art", 3, 2).line == 2
    assert dfn("gun", "art", 2, 2, line=1).line == 1
    assert (medium("def").line, katyusha().line, stuka().line) == (1, 2, 2)
    with pytest.raises(RuleError) as exc:
        dfn("infantry", "inf", 3, 2, line=2)
    assert exc.value.rule == "V17"


def test_v19_a_2nd_line_ground_unit_never_attacks():
    with pytest.raises(RuleError) as exc:
        att("howitzer", "art", 3, 2)
    assert exc.value.rule == "V19"


def test_v6_a_turned_unit_cannot_attack():
    with pytest.raises(RuleError) as exc:
        att("T-34", "arm", 3, 3, turned=True)
    assert exc.value.rule == "V6"


def test_v21_v23_only_one_turned_defender_the_directed_target():
    with pytest.raises(RuleError) as exc:
        Combat([stug(), kv(turned=True), dfn("T-34", "arm", 3, 3, turned=True)])
    assert exc.value.rule == "V21"


def test_v22_a_2nd_line_unit_fights_alone_when_attacked():
    with pytest.raises(RuleError) as exc:
        Combat([stuka(), katyusha(), dfn("fighter", "air", 3, 3)])        # the fighter forgot to intercept
    assert exc.value.rule == "V22"
    assert outcome(att("T-34", "arm", 3, 3), dfn("howitzer", "art", 3, 2)) == {"att": [{"howitzer"}],
                                                                             "def": [{"T-34"}]}


def test_v26_units_are_named_apart_and_both_sides_are_given():
    with pytest.raises(RuleError) as exc:
        Combat([medium("att"), medium("def")])
    assert exc.value.rule == "V26"
    with pytest.raises(RuleError) as exc:
        Combat([medium("att")])
    assert exc.value.rule == "V26"


def test_v31_types_are_the_four_colours():
    with pytest.raises(RuleError) as exc:
        Unit("ship", "att", "navy", 1, 1)
    assert exc.value.rule == "V31"
    assert dfn("T-34", "arm", 3, 3, kind="Medium Tank").is_a("medium tank")


def test_v37_a_ground_attacker_makes_aviation_0_0():
    c = Combat([medium("att"), dfn("fighter", "air", 3, 3)])
    f = c.fighters["fighter"]
    assert (f.attack, f.defence, f.need) == (0, 0, 0)
    assert outcome(medium("att"), dfn("fighter", "air", 3, 3)) == {"att": [{"fighter"}], "def": [set()]}


def test_v37_va7_the_ground_cannot_hit_a_bomber_and_fighters_cannot_hit_the_ground():
    got = outcome(stuka(), dfn("T-34", "arm", 3, 3))
    assert got == {"att": [{"T-34"}], "def": [set()]}
    with pytest.raises(RuleError) as exc:
        Combat([att("fighter", "air", 3, 3), dfn("T-34", "arm", 3, 3)])
    assert exc.value.rule == "V37"


def test_v37_bombing_and_ground_attack_pool_against_the_ground():
    got = outcome(stuka(), att("T-34", "arm", 3, 3), tiger())            # 5 + 3 >= 5; the Tiger hits only the T-34
    assert got == {"att": [{"«Тигр»"}], "def": [{"T-34"}]}


def test_v38_several_defending_fighters_take_one_escort():
    got = parts(stuka(), att("escort", "air", 3, 3, binds="f1"), katyusha(),
                dfn("f1", "air", 2, 2, intercepts="Ju-87 STUKA"), dfn("f2", "air", 2, 2, intercepts="escort"))
    assert got["dogfight"] == {"att": [{"f1"}, {"f2"}], "def": [{"escort"}]}
    assert got["bombing"]["att"] == [{"«Катюша»"}]


def test_v29_v38_airfield_bombing_after_an_escort_fight():
    """The escort binds the fighter (2 < 3), the bomber then bombs it: 2 + 1 >= 3 over the wave."""
    c = Combat([att("Ju-88", "air", 1, 2, bombing=1, bombs="fighter"), att("escort", "air", 2, 2, binds="fighter"),
                dfn("fighter", "air", 3, 3)])
    assert len(c.parts) == 1
    assert [set(o) for o in c.parts[0].sides["att"].options] == [{"fighter"}]
    assert [set(o) for o in c.parts[0].sides["def"].options] == [{"escort"}]


@pytest.mark.parametrize("kw,rule", [({"binds": "nobody"}, "V38"), ({"binds": "T-34"}, "V38")])
def test_v38_an_escort_binds_a_defending_fighter(kw, rule):
    with pytest.raises(RuleError) as exc:
        Combat([stuka(), att("escort", "air", 3, 3, **kw), dfn("T-34", "arm", 3, 3)])
    assert exc.value.rule == rule


def test_v38_a_turned_fighter_does_not_intercept():
    with pytest.raises(RuleError) as exc:
        dfn("fighter", "air", 3, 3, turned=True, intercepts="Ju-87 STUKA")
    assert exc.value.rule == "V38"


def test_v30_deck_attack_mills_the_summed_attack_without_modifiers():
    units = [att("Sturmgrenadier", "inf", 3, 3), att("StuG", "arm", 4, 3, mods=[("arm", 1, 1)], support=2)]
    assert deck_attack(units) == (9, 9, None)
    assert deck_attack(units, 20) == (9, 9, 11)
    assert deck_attack(units, 5) == (9, 5, 0)                  # a shorter deck loses all


def test_v30_va5_resource_attack_and_aviation_refused():
    assert resource_attack([att("scouts", "inf", 1, 1)]) == (1, True)
    assert resource_attack([att("crew", "inf", 0, 1)]) == (0, False)
    with pytest.raises(RuleError) as exc:
        deck_attack([stuka()])
    assert exc.value.rule == "V30"


# ------------------------------------------------ maximal sets against a brute force (V28)

ground = st.tuples(st.integers(0, 6), st.integers(1, 6), st.integers(0, 3))


@given(st.lists(ground, min_size=1, max_size=3), st.lists(ground, min_size=1, max_size=5))
def test_v28_maximal_sets_are_every_maximal_affordable_set(atts, defs):
    """Ground units only: a set is destroyable iff its summed remaining defence fits the pool."""
    units = [att("a%d" % i, "inf", a, d, damage=min(dmg, d - 1)) for i, (a, d, dmg) in enumerate(atts)]
    units += [dfn("d%d" % i, "inf", a, d, damage=min(dmg, d - 1)) for i, (a, d, dmg) in enumerate(defs)]
    c = Combat(units)
    assert len(c.parts) == 1
    for side, enemy in (("att", "d"), ("def", "a")):
        res = c.parts[0].sides[side]
        names = [u.name for u in units if u.name.startswith(enemy)]
        need = {u.name: u.defence - u.damage for u in units}
        fits = [set(s) for k in range(len(names) + 1) for s in combinations(names, k)
                if sum(need[n] for n in s) <= res.pool]
        maximal = [s for s in fits if not any(s < t for t in fits)]
        assert sorted(map(sorted, maximal)) == sorted(sorted(o) for o in res.options)


@given(st.integers(0, 8), st.integers(1, 8), st.integers(1, 8), st.integers(1, 8))
def test_v28_v37_restricted_attack_against_a_brute_force_split(tank, bombing, need_x, need_y):
    """The bomber's bombing may go to X only (its named target), the tank's attack
    to X or Y: a set is destroyable iff some split of the tank's attack covers it."""
    c = Combat([att("Ju-88", "air", 1, 2, bombing=bombing, bombs="X"), att("T-34", "arm", tank, 3),
                dfn("X", "inf", 0, need_x), dfn("Y", "inf", 0, need_y)])
    fits = []
    for chosen in ({"X", "Y"}, {"X"}, {"Y"}, set()):
        for k in range(tank + 1):          # k of the tank's attack on X, the rest on Y
            on = {"X": bombing + k, "Y": tank - k}
            if all(on[n] >= {"X": need_x, "Y": need_y}[n] for n in chosen):
                fits.append(chosen)
                break
    maximal = [f for f in fits if not any(f < g for g in fits)]
    assert sorted(map(sorted, maximal)) == sorted(sorted(o) for o in c.parts[0].sides["att"].options)
