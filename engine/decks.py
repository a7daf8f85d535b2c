"""Demo decks from the card pool: 40 cards, at most 3 copies of a card."""

from __future__ import annotations

from .cards import CARDS_BY_NAME

_DEMO: tuple[tuple[tuple[str, int], ...], ...] = (
    (
        ("Celtic Guardian", 3), ("Gemini Elf", 3), ("Vorse Raider", 3), ("Alexandrite Dragon", 3),
        ("Luster Dragon", 3), ("Archfiend Soldier", 3), ("Mystical Elf", 2), ("Summoned Skull", 2),
        ("Dark Magician", 1), ("Giant Soldier of Stone", 2), ("Battle Ox", 3), ("Feral Imp", 3),
        ("Mad Dog of Darkness", 3), ("Neo the Magic Swordsman", 3), ("Silver Fang", 3),
    ),
    (
        ("Beaver Warrior", 3), ("Gene-Warped Warwolf", 3), ("La Jinn the Mystical Genie of the Lamp", 3),
        ("Archfiend Soldier", 3), ("Luster Dragon", 3), ("Mystical Elf", 3), ("Blue-Eyes White Dragon", 2),
        ("Summoned Skull", 1), ("Elemental HERO Avian", 3), ("Elemental HERO Burstinatrix", 3),
        ("Elemental HERO Sparkman", 3), ("Elemental HERO Clayman", 3), ("Battle Ox", 3), ("Vorse Raider", 3),
        ("Gemini Elf", 1),
    ),
)


def demo_deck(index: int) -> list[int]:
    """A legal 40-card demo deck (passcodes), ``index`` 0 or 1 (others wrap)."""
    spec = _DEMO[index % len(_DEMO)]
    out: list[int] = []
    for name, n in spec:
        out.extend([CARDS_BY_NAME[name].code] * n)
    assert len(out) == 40, (index, len(out))
    return out
