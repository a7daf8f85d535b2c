"""The turn as a table (issue 12): phases, Battle Phase steps and Damage Step timings are
declared once, as rows, and their names are enums whose values are the strings of the logs and
the wire (the strings golden logs and scenario files use)."""

from __future__ import annotations

from engine.battle import damage_step
from engine.flow import BATTLE_STEPS, PHASE_ORDER, TURN
from engine.types import MAIN_PHASES, Phase, Position, Step, Timing, Zone


def test_enum_values_are_the_logged_strings() -> None:
    assert tuple(Phase) == ("draw", "standby", "main1", "battle", "main2", "end")
    assert tuple(Step) == ("start", "battle", "damage", "end")
    assert tuple(Timing) == (
        "start_of_damage_step",
        "before_damage_calculation",
        "during_damage_calculation",
        "after_damage_calculation",
        "end_of_damage_step",
    )
    assert tuple(Zone) == (
        "deck",
        "hand",
        "monsters",
        "spells_traps",
        "field",
        "graveyard",
        "banished",
        "extra",
        "xyz_material",
        "gone",
    )
    assert tuple(Position) == ("attack", "defense")
    assert all(isinstance(m, str) and m == m.value for e in (Phase, Step, Timing, Zone, Position) for m in e)


def test_every_phase_step_and_timing_has_one_row_in_order() -> None:
    assert tuple(TURN) == PHASE_ORDER == tuple(Phase)
    assert tuple(BATTLE_STEPS) == tuple(Step)
    assert tuple(damage_step.TIMINGS) == tuple(Timing)
    assert {Phase.MAIN1, Phase.MAIN2} == MAIN_PHASES


def test_the_damage_step_rows_say_what_rulings_ds3_and_ds5_say() -> None:
    held = [t for t, row in damage_step.TIMINGS.items() if row.holds_self_destruction]
    assert held == [Timing.START, Timing.BEFORE_CALC, Timing.DURING_CALC]  # DS-3: until after calculation
    assert [t for t, row in damage_step.TIMINGS.items() if row.one_chain] == [Timing.DURING_CALC]  # DS-5
