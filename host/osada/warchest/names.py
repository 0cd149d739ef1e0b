"""Words for War Chest's («Сундук войны») coins: each unit type by its
English id and the Russian edition's name (W28), the royal coin, the zones.
The ids themselves are the rules core's (shared_rules.warchest.units)."""

from shared_rules.warchest.units import ROYAL

RUSSIAN = {
    "archer": "Лучники", "crossbowman": "Арбалетчики", "light_cavalry": "Лёгкая кавалерия",
    "cavalry": "Кавалерия", "lancer": "Конные копейщики", "knight": "Рыцари", "marshall": "Полководцы",
    "ensign": "Знаменосцы", "footman": "Пехота", "mercenary": "Наёмники", "royal_guard": "Королевская стража",
    "warrior_priest": "Капелланы", "berserker": "Берсерки", "pikeman": "Пикинёры", "swordsman": "Мечники",
    "scout": "Разведчики", ROYAL: "королевская фишка",
}


def label(t):
    """"swordsman (Мечники)"; a name the game does not know as it is."""
    name = RUSSIAN.get(t)
    return "%s (%s)" % (t, name) if name else t

