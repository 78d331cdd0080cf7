"""The trace's events: what the engine recorded as it played (G8), in names a reader knows.

The engine records each action, draw and roll as a small dict of card indices and space numbers
(`GameState.record`). `trace_events` turns that record into JSON-ready events: cards become
`{"id", "name", "level"}`, spaces become a board coordinate (`{"row", "column"}`, row 0 being our
back edge; the opponent's back row is row `2 × rows - 1`) or "command_zone", and each event
gets the turn it happened in. Nothing here decides anything: every number comes from the record.
`schemas/trace.schema.json` describes every event; `SCHEMA_VERSION` is its version.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sengoku.carddb.vocabulary import WEAPONS
from sengoku.engine import COMMAND_ZONE, DeckTables
from sengoku.engine.combat import ATTACKER_HIGHER, EQUAL, GUARD_HIGHER
from sengoku.engine.tables import (
    FX_DRAW,
    FX_EVOLUTION,
    FX_GAIN_AP,
    FX_HP,
    FX_MP,
    FX_TROOP,
    FX_WEAPON,
    OP_DRAW,
    OP_GAIN_AP,
    ROW_COMBAT,
    ROW_EVOLUTION,
    ROW_SUPPORT,
    TARGET_ALLY,
    TARGET_COMMANDER,
    TARGET_SELF,
)

SCHEMA_VERSION = 1

OUTCOMES = {ATTACKER_HIGHER: "attacker_higher", GUARD_HIGHER: "last_guard_higher", EQUAL: "equal"}
ROW_CATEGORIES = {ROW_SUPPORT: "support", ROW_COMBAT: "combat", ROW_EVOLUTION: "evolution"}
_FAMILIAR_EFFECTS = {FX_HP: "hp", FX_MP: "mp", FX_TROOP: "troop", FX_WEAPON: "weapon",
                     FX_EVOLUTION: "evolution", FX_DRAW: "draw", FX_GAIN_AP: "gain_ap"}
_TARGETS = {TARGET_SELF: "self", TARGET_ALLY: "ally", TARGET_COMMANDER: "commander"}


class _Names:
    """Turns one deck's card indices and the board's space numbers into JSON values."""

    def __init__(self, tables: DeckTables, opponent: DeckTables) -> None:
        self.t, self.ot = tables, opponent
        geometry = tables.board
        self.coords = geometry.coords
        board = geometry.board
        depth, columns = len(board.rows), board.columns
        # Where the opponent's characters stand, in our coordinates: its half is ours mirrored (B1).
        self.enemy_spots = [(2 * depth - 1 - r, columns - 1 - c) for r, c in board.perimeter]

    def card(self, c: int, opponent: bool = False) -> dict[str, Any] | None:
        if c < 0:
            return None
        t = self.ot if opponent else self.t
        return {"id": t.card_id[c], "name": t.name[c], "level": t.level[c]}

    def cards(self, cs: Iterable[int], opponent: bool = False) -> list[dict[str, Any] | None]:
        return [self.card(c, opponent) for c in cs]

    def space(self, s: int) -> dict[str, int] | str:
        if s == COMMAND_ZONE:
            return "command_zone"
        r, c = self.coords[s]
        return {"row": r, "column": c}

    def enemy_space(self, s: int, k: int) -> dict[str, int]:
        """The space of the opponent's character number `k` (0: its Commander) standing on `s`."""
        if s >= 0:
            r, c = self.coords[s]
        else:  # off our board, on the opponent's Backline: its place in the Perimeter's order (S2)
            r, c = self.enemy_spots[max(0, k - 1)] if k - 1 < len(self.enemy_spots) else (-1, -1)
        return {"row": r, "column": c}

    def power(self, c: int, magic: bool, opponent: bool = False) -> int:
        t = self.ot if opponent else self.t
        return t.mat[c] if magic else t.atk[c]


def _effects(effects: Iterable[Any]) -> list[dict[str, Any]]:
    """A character ability's structured effects (C5)."""
    out = []
    for op, amount, target in effects:
        name = "draw" if op == OP_DRAW else "gain_ap" if op == OP_GAIN_AP else "heal"
        e: dict[str, Any] = {"effect": name, "amount": amount}
        if name == "heal":
            e["target"] = _TARGETS.get(target, "ally")
        out.append(e)
    return out


def _row(row: Any) -> dict[str, Any] | None:
    """A familiar ability row (A4): its category, die number and effects."""
    if row is None:
        return None
    category, die, effects, skipped = row
    return {"category": ROW_CATEGORIES[category], "die": die,
            "effects": [{"effect": _FAMILIAR_EFFECTS[op], "amount": amount}
                        | ({"weapon": WEAPONS[arg]} if op == FX_WEAPON and 0 <= arg < len(WEAPONS) else {})
                        for op, amount, arg in effects],
            "not_simulated": skipped}


def trace_events(record: list[dict[str, Any]], tables: DeckTables, opponent: DeckTables | None = None) -> list[dict[str, Any]]:
    """Return the JSON events of a game from the engine's `record` of it (see the module docstring)."""
    n = _Names(tables, opponent if opponent is not None else tables)
    t = tables
    turn = 0
    first_ap = 0
    out: list[dict[str, Any]] = []
    for raw in record:
        kind = raw["event"]
        if kind == "turn":
            turn = raw["turn"]
        e: dict[str, Any] = {"event": kind, "turn": turn}
        if kind == "setup":
            first_ap = 5 if raw["going_first"] else 0  # S7: the opponent's seat (it never takes a turn, G4)
            cmd, *nameless = raw["opponent"]
            e.update(
                going="first" if raw["going_first"] else "second",
                commander=n.card(raw["commander"]),
                nameless=[{"card": n.card(c), "space": n.space(s)} for c, s in raw["nameless"]],
                hand=n.cards(raw["hand"]), familiar_hand=n.cards(raw["familiar_hand"]),
                stronghold=raw["stronghold"], hp=raw["hp"], ap=raw["ap"],
                opponent={"commander": n.card(cmd[0], True),
                          "nameless": [{"card": n.card(c, True), "space": n.enemy_space(s, k)}
                                       for k, (c, s) in enumerate(nameless, start=1)],
                          "hp": raw["opponent_hp"], "ap": first_ap, "defends": raw["opponent_defends"]})
        elif kind == "turn":
            e.update(gained=raw["gained"], ap=raw["ap"], to_attack_stance=n.cards(raw["to_attack_stance"]))
        elif kind == "charge":
            e.update(cards=[{"card": n.card(c), "ap": t.charge[c]} for c in raw["cards"]], gain=raw["gain"],
                     ap=raw["ap"])
        elif kind == "hp_charge":
            e.update(card=n.card(raw["card"]), space=n.space(raw["space"]), cost=raw["cost"], hp=raw["hp"],
                     max_hp=t.cost[raw["card"]], ap=raw["ap"])
        elif kind == "familiar_hp_charge":
            target = raw["card"]
            e.update(cards=[{"card": n.card(c), "charge": t.charge[c]} for c in raw["cards"]], gain=raw["gain"],
                     card=n.card(target), space=n.space(raw["space"]) if target >= 0 else None,
                     hp=raw["hp"] if target >= 0 else None)
        elif kind == "draw":
            e.update(why=raw["why"], cards=n.cards(raw["cards"]), reshuffled=raw["reshuffled"],
                     stronghold=raw["stronghold"])
        elif kind == "deploy":
            e.update(card=n.card(raw["card"]), space=n.space(raw["space"]), cost=raw["cost"], ap=raw["ap"])
        elif kind in ("growth", "focus"):
            e.update(card=n.card(raw["card"]), onto=n.card(raw["onto"]), space=n.space(raw["space"]),
                     hp=raw["hp"], max_hp=t.cost[raw["card"]], gain=raw["gain"], ap=raw["ap"])
        elif kind == "move":
            e.update(card=n.card(raw["card"]), **{"from": n.space(raw["from"])}, to=n.space(raw["to"]),
                     cost=raw["cost"], ap=raw["ap"])
        elif kind == "swap":
            e.update(card=n.card(raw["card"]), space=n.space(raw["space"]), other=n.card(raw["other"]),
                     other_space=n.space(raw["other_space"]), cost=raw["cost"], ap=raw["ap"])
        elif kind == "ability":
            e.update(how=raw["how"], card=n.card(raw["card"]),
                     space=None if raw["how"] == "hand" else n.space(raw["space"]), cost=raw["cost"],
                     effects=_effects(raw["effects"]), then=raw["then"], ap=raw["ap"])
        elif kind == "gain_ap":
            e.update(gain=raw["gain"], ap=raw["ap"])
        elif kind == "heal":
            e.update(card=n.card(raw["card"]), space=n.space(raw["space"]), hp=raw["hp"], max_hp=t.cost[raw["card"]])
        elif kind == "mp":
            e.update(card=n.card(raw["card"]), onto=n.card(raw["onto"]), space=n.space(raw["space"]))
        elif kind == "fetch":
            e.update(card=n.card(raw["card"]))
        elif kind == "troop":
            e.update(looked=raw["looked"], card=n.card(raw["card"]), bottom=n.cards(raw["bottom"]))
        elif kind == "contract":
            e.update(card=n.card(raw["card"]), holder=n.card(raw["holder"]), space=n.space(raw["space"]),
                     cost=raw["cost"], ap=raw["ap"])
        elif kind == "evolution":
            e.update(source=raw["from"], card=n.card(raw["card"]), onto=n.card(raw["onto"]),
                     holder=n.card(raw["holder"]), space=n.space(raw["space"]), hp=raw["hp"])
        elif kind == "release":
            e.update(card=n.card(raw["card"]), holder=n.card(raw["holder"]), space=n.space(raw["space"]),
                     holder_space=n.space(raw["holder_space"]), moved_holder=raw["moved_holder"], hp=raw["hp"],
                     cost=raw["cost"], ap=raw["ap"])
        elif kind == "familiar_ability":
            e.update(card=n.card(raw["card"]), holder=n.card(raw["holder"]), space=n.space(raw["space"]),
                     cost=raw["cost"], ap=raw["ap"], roll=raw["roll"], rows_reached=raw["reached"],
                     row=_row(raw["row"]))
        elif kind == "attack":
            e.update(_attack(raw, n))
        elif kind == "leave_play":
            e.update(card=n.card(raw["card"]), space=n.space(raw["space"]), to_hand=n.card(raw["to_hand"]),
                     sources=n.cards(raw["sources"]), familiars=n.cards(raw["familiars"]),
                     released=raw["released"])
        elif kind == "end_turn":
            e.update(ap=raw["ap"], opponent_ap=first_ap,
                     allies=[{"card": n.card(c), "space": n.space(s), "hp": hp, "max_hp": t.cost[c],
                              "stance": "defense" if defending else "attack",
                              "familiar": n.card(fam[-1]) if fam else None, "released": released}
                             for c, s, hp, defending, fam, released in raw["allies"]],
                     enemies=[{"card": n.card(c, True), "space": n.enemy_space(s, k)}
                              for k, (c, s) in enumerate(raw["enemies"]) if not (k == 0 and s == COMMAND_ZONE)],
                     opponent_command_zone=n.card(raw["enemies"][0][0], True)
                     if raw["enemies"] and raw["enemies"][0][1] == COMMAND_ZONE else None,
                     hand=n.cards(raw["hand"]), familiar_hand=n.cards(raw["familiar_hand"]),
                     stronghold=raw["stronghold"], standby=raw["standby"], hp=raw["hp"],
                     opponent_hp=raw["opponent_hp"],
                     opponent_stronghold=raw["opponent_stronghold"] if raw["opponent_stronghold"] >= 0 else None,
                     won_turn=raw["won_turn"])
        else:  # pragma: no cover - an event the engine records but this module does not know
            raise ValueError(f"unknown engine event {kind!r}")
        out.append(e)
    return out


def _attack(raw: dict[str, Any], n: _Names) -> dict[str, Any]:
    """An attack on the Stronghold (K2, K4, K5): both sides' numbers, from the record."""
    t = n.t
    magic = raw["magic"]
    card = raw["card"]
    base = n.power(card, magic)
    fam = raw["familiar"]
    values = t.boost_mat[card] if magic else t.boost_atk[card]
    boosts = [{"card": n.card(c), "value": values[k] if k < len(values) else 0} for k, c in enumerate(raw["boosts"])]
    guard = raw["guard"]
    cmd = raw["commander"]
    guard_values = (n.ot.boost_mat[guard] if magic else n.ot.boost_atk[guard]) if guard >= 0 else ()
    guard_boosts = [{"card": n.card(c, True), "value": guard_values[k] if k < len(guard_values) else 0}
                    for k, c in enumerate(raw["guard_boosts"])]
    outcome = OUTCOMES[raw["outcome"]]
    return {
        "card": n.card(card), "space": n.space(raw["space"]), "kind": "MAT" if magic else "ATK", "base": base,
        "familiar": n.card(fam), "familiar_power": n.power(fam, magic) if fam >= 0 else 0,
        "boosts": boosts, "power": raw["power"],
        "last_guard": n.card(guard, True), "last_guard_power": raw["guard_power"],
        "commander": n.card(cmd, True), "commander_power": n.power(cmd, magic, True) if cmd >= 0 else 0,
        "commander_space": n.enemy_space(raw["commander_space"], 0) if cmd >= 0 else None,
        "last_guard_boosts": guard_boosts, "defense": raw["defense"], "outcome": outcome,
        "damage_to_attacker": raw["to_attacker"], "attacker_hp": max(0, raw["attacker_hp"] - raw["to_attacker"]),
        "defeated": raw["to_attacker"] >= raw["attacker_hp"],
        "damage_to_stronghold": raw["to_stronghold"],
        "last_guard_to": None if guard < 0 else "hand" if outcome == "last_guard_higher" else "standby",
        "opponent_hp": raw["opponent_hp"], "won": raw["won"],
    }
