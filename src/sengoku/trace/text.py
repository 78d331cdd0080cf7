"""The text form of a trace: one line per step in the game's own words, the board as a grid.

Rendered from the JSON events alone (`sengoku.trace.events`), so the text and `--json` always
tell the same game. Rule ids in parentheses point to SPEC's rules, to check a step against the
guide. Spaces are named like a chessboard: a column letter (a = our left) and a row number
(1 = our back row; the top row is the opponent's back row). A deck's name and a file's path come
from strangers: every line goes out through `display.printable`, as goldfish's own report does,
so an escape sequence, a bidi override or a line separator in them is shown escaped, never obeyed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sengoku.display import printable
from sengoku.goldfish.options import policy_label

CELL = 15  # characters per grid cell
_WHY_DRAWN = {"ability": "the ability drew", "familiar": "the familiar's row drew"}
_ROW_NAMES = ("our Backline", "our Frontline", "Invasion Zone", "their Backline")


def space(s: Any) -> str:
    """A space as a reader names it: 'c2', or 'the Command Zone'."""
    if s == "command_zone":
        return "the Command Zone"
    if not isinstance(s, dict) or s.get("row", -1) < 0:
        return "their Backline"
    return f"{chr(ord('a') + s['column'])}{s['row'] + 1}"


def at(s: Any) -> str:
    """Where an ally stands: 'on c2', or 'in the Command Zone'."""
    return f"in {space(s)}" if s == "command_zone" else f"on {space(s)}"


def card(c: Any) -> str:
    return "nothing" if c is None else f"{c['name']} L{c['level']}"


def cards(cs: Iterable[Any]) -> str:
    names = [card(c) for c in cs]
    return ", ".join(names) if names else "none"


def _ap(cost: int, ap: int) -> str:
    return f"−{cost} → {ap} AP" if cost else f"free, {ap} AP"


def _effects(effects: list[dict[str, Any]]) -> str:
    words = []
    for e in effects:
        what, n = e["effect"], e["amount"]
        if what == "draw":
            words.append(f"draw {n}")
        elif what == "gain_ap":
            words.append(f"+{n} AP")
        elif what in ("heal", "hp"):
            words.append(f"+{n} HP")
        elif what == "mp":
            words.append("MP")
        elif what == "troop":
            words.append("Troop")
        elif what == "weapon":
            words.append(f"fetch a {e.get('weapon', 'weapon')}")
        else:
            words.append(what)
    return ", ".join(words) or "no effect"


def render_text(events: list[dict[str, Any]]) -> str:
    """Return the whole trace as text (lines end with a newline)."""
    header = next((e for e in events if e["event"] == "trace"), None)
    board = header["board"] if header else {"rows": 2, "columns": 5, "stronghold": {"row": 0, "column": 2}}
    out: list[str] = []
    for e in events:
        out.extend(_lines(e, board))
    return "\n".join(printable(line) for line in out) + "\n"


def _lines(e: dict[str, Any], board: dict[str, Any]) -> list[str]:  # noqa: C901 - one branch per event
    kind = e["event"]
    if kind == "trace":
        chosen = f", the {e['chosen']} game" if e.get("chosen") else ""
        opp = e["opponent"]
        who = "a mirror of the deck" if opp["deck"] == "mirror" else str(opp["deck"])
        defends = "adds its Commander and self-boosts" if opp["defends"] else "makes no optional choice"
        return [f"Run {e['run']} of {e['runs']:,} (seed {e['seed']}{chosen}): {e['deck']}, going {e['going']}, "
                f"policy {_policy(e['policy'])}, {e['mode']} mode, at most {e['turns']} turns.",
                f"Opponent: {who}; it never acts and {defends} (G4)."]
    if kind == "setup":
        opp = e["opponent"]
        lines = ["", "Setup",
                 f"  Commander {card(e['commander'])} in the Command Zone (S1); Nameless "
                 + ", ".join(f"{card(x['card'])} {at(x['space'])}" for x in e["nameless"]) + " (S2).",
                 f"  Stronghold: {e['stronghold']} cards, {e['hp']} HP (S3, S5). AP {e['ap']} (S7).",
                 f"  Opening hand (S6): {cards(e['hand'])}."]
        if e["familiar_hand"]:
            lines.append(f"  Familiar hand (S4): {cards(e['familiar_hand'])}.")
        lines.append(f"  Opponent: Commander {card(opp['commander'])} in its Command Zone, Nameless "
                     + ", ".join(f"{card(x['card'])} {at(x['space'])}" for x in opp["nameless"])
                     + f"; Stronghold {opp['hp']} HP; AP {opp['ap']}.")
        return lines
    if kind == "turn":
        back = f"; back to Attack Stance: {cards(e['to_attack_stance'])} (T1)" if e["to_attack_stance"] else ""
        return ["", f"Turn {e['turn']}", f"  AP Charge: +{e['gained']} → {e['ap']} AP (T2a){back}."]
    if kind == "charge":
        sent = ", ".join(f"{card(x['card'])} (+{x['ap']})" for x in e["cards"])
        return [f"  Sent to the Standby Zone: {sent}: +{e['gain']} → {e['ap']} AP (T2a)."]
    if kind == "hp_charge":
        return [f"  HP Charge: {card(e['card'])} {at(e['space'])} +1 HP → {e['hp']}/{e['max_hp']}, "
                f"{_ap(e['cost'], e['ap'])} (T2b)."]
    if kind == "familiar_hp_charge":
        onto = f"{card(e['card'])} {at(e['space'])} → {e['hp']} HP" if e["card"] else "no ally"
        return [f"  Ultimate HP Charge: sent {cards(x['card'] for x in e['cards'])} to the Summoning Zone, "
                f"+{e['gain']} HP: {onto} (T2c)."]
    if kind == "draw":
        reshuffled = " The Standby Zone became the Stronghold (T3)." if e["reshuffled"] else ""
        if e["why"] == "draw_phase":
            drew = f"drew {cards(e['cards'])}" if e["cards"] else "5 cards in hand, nothing to draw"
            return [f"  Draw Phase: {drew} (T3); Stronghold {e['stronghold']} cards.{reshuffled}",
                    "  Main Phase (T4):"]
        return [f"      {_WHY_DRAWN.get(e['why'], 'drew')} {cards(e['cards'])}; Stronghold {e['stronghold']} cards."
                + reshuffled]
    if kind == "deploy":
        return [f"    Deploy {card(e['card'])} {at(e['space'])}: {_ap(e['cost'], e['ap'])} (M1)."]
    if kind in ("growth", "focus"):
        rule = "M2" if kind == "growth" else "M3"
        return [f"    {kind.title()}: {card(e['card'])} onto {card(e['onto'])} {at(e['space'])}, "
                f"HP {e['hp']}/{e['max_hp']}: +{e['gain']} → {e['ap']} AP ({rule})."]
    if kind == "move":
        return [f"    Move {card(e['card'])} from {space(e['from'])} to {space(e['to'])}: {_ap(e['cost'], e['ap'])} (M4)."]
    if kind == "swap":
        return [f"    Swap {card(e['card'])} (now {at(e['space'])}) with {card(e['other'])} "
                f"(now {at(e['other_space'])}): {_ap(e['cost'], e['ap'])} (M5)."]
    if kind == "ability":
        where = "from the hand" if e["how"] == "hand" else f"{at(e['space'])}"
        how = {"trigger": "triggered", "activated": "activated", "hand": "used"}[e["how"]]
        then = ""
        if e["then"]:
            then = "; the card then goes to the Standby Zone" if e["how"] == "hand" else "; then Defense Stance"
        return [f"    Ability of {card(e['card'])} {where} {how}: {_effects(e['effects'])}, "
                f"{_ap(e['cost'], e['ap'])}{then} (C5, A1)."]
    if kind == "gain_ap":
        return [f"      +{e['gain']} → {e['ap']} AP."]
    if kind == "heal":
        return [f"      {card(e['card'])} {at(e['space'])} → {e['hp']}/{e['max_hp']} HP."]
    if kind == "mp":
        return [f"      MP: {card(e['card'])} from the Standby Zone under {card(e['onto'])} {at(e['space'])}."]
    if kind == "fetch":
        return [f"      {card(e['card'])} from the Standby Zone to the hand."]
    if kind == "troop":
        return [f"      Troop: looked at {e['looked']} Stronghold card(s), took {card(e['card'])}, "
                f"{len(e['bottom'])} to the bottom."]
    if kind == "contract":
        return [f"    Contract: {card(e['card'])} with {card(e['holder'])} {at(e['space'])}: "
                f"{_ap(e['cost'], e['ap'])} (U3)."]
    if kind == "evolution":
        source = "from the hand" if e["source"] == "hand" else "from the Summoning Zone"
        return [f"    {'  ' if e['source'] != 'hand' else ''}Evolution: {card(e['card'])} {source} onto "
                f"{card(e['onto'])} {at(e['space'])} (U4)."]
    if kind == "release":
        who = "the holder steps" if e["moved_holder"] else "the familiar steps"
        return [f"    Release: {card(e['card'])} from {card(e['holder'])}, {who} apart: the familiar on "
                f"{space(e['space'])} with {e['hp']} HP, {card(e['holder'])} {at(e['holder_space'])}: "
                f"{_ap(e['cost'], e['ap'])} (U5)."]
    if kind == "familiar_ability":
        holder = f" (held by {card(e['holder'])})" if e["holder"] else ""
        row = e["row"]
        if row is None:
            applied = "no row reached"
        else:
            applied = f"{row['category']} row (die {row['die']}+): {_effects(row['effects'])}"
            if row["not_simulated"]:
                applied += f", {row['not_simulated']} effect(s) not simulated (C5)"
        return [f"    Familiar ability of {card(e['card'])}{holder} {at(e['space'])}: "
                f"{_ap(e['cost'], e['ap'])}, die {e['roll']}: {applied} (A4)."]
    if kind == "attack":
        return _attack(e)
    if kind == "leave_play":
        back = f"; {card(e['to_hand'])} back to the hand (M6)" if e["to_hand"] else ""
        return [f"      {card(e['card'])} {at(e['space'])} is defeated and leaves play{back}."]
    if kind == "end_turn":
        return _end_of_turn(e, board)
    if kind == "end":
        if e["won_turn"] is not None:
            tail = "" if e["played_on"] else ": the game stops there (G5)"
            return ["", f"Won on turn {e['won_turn']} (K5){tail}."]
        return ["", f"Not won within {e['turns']} turns."]
    return [f"    ({kind})"]


def _policy(p: Any) -> str:
    """The policy as goldfish's report names it (`policy_label`): the JSON's name, or its {name, settings}."""
    return policy_label(p["name"], p["settings"].items()) if isinstance(p, dict) else str(p)


def _attack(e: dict[str, Any]) -> list[str]:
    kind = e["kind"]
    parts = [f"{kind} {e['base']}"]
    if e["familiar"]:
        parts.append(f"familiar {card(e['familiar'])} {e['familiar_power']} (U3)")
    for b in e["boosts"]:
        parts.append(f"self-boost {b['value']} (paid with {card(b['card'])}, K2)")
    ours = " + ".join(parts) + (f" = {e['power']}" if len(parts) > 1 else "")
    if e["last_guard"] is None:
        theirs = "no Last Guard (their Stronghold is empty): 0"
    else:
        them = [f"Last Guard {card(e['last_guard'])} {kind} {e['last_guard_power']}"]
        if e["commander"]:
            them.append(f"their Commander {card(e['commander'])} {e['commander_power']} (joins on "
                        f"{space(e['commander_space'])})")
        for b in e["last_guard_boosts"]:
            them.append(f"self-boost {b['value']} (paid with {card(b['card'])})")
        theirs = " + ".join(them) + (f" = {e['defense']}" if len(them) > 1 else "")
    lines = [f"    Attack: {card(e['card'])} {at(e['space'])}, {ours} vs {theirs}."]
    outcome = e["outcome"]
    before = e["opponent_hp"] + (1 if e["damage_to_stronghold"] and not e["won"] and e["opponent_hp"] >= 0 else 0)
    if e["won"]:
        hit = "the Stronghold at 0 HP takes combat damage: won (K5)"
    elif e["damage_to_stronghold"]:
        hit = f"Stronghold {before} → {e['opponent_hp']} HP"
    else:
        hit = ""
    guard = "" if e["last_guard"] is None else (
        "; the Last Guard goes to their hand" if e["last_guard_to"] == "hand" else "; the Last Guard is defeated")
    fell = f", {card(e['card'])} is defeated" if e["defeated"] else (
        f", {card(e['card'])} → {e['attacker_hp']} HP" if e["damage_to_attacker"] else "")
    if outcome == "attacker_higher":
        lines.append(f"      {e['power']} vs {e['defense']}: attacker higher{guard}; {hit}"
                     + (" (K4)." if not e["won"] else "."))
    elif outcome == "last_guard_higher":
        lines.append(f"      Last Guard {e['defense']} {kind} vs {e['power']}: attacker takes "
                     f"{e['damage_to_attacker']} (K1){fell}{guard} (K4).")
    else:
        lines.append(f"      {e['power']} vs {e['defense']}: equal, both take 1{fell}{guard}; {hit}"
                     + (" (K4)." if not e["won"] else "."))
    if not e["defeated"]:
        lines.append("      Then Defense Stance.")
    return lines


def _cell(text: str) -> str:
    return text[:CELL - 1].ljust(CELL)


def _ally_cell(a: dict[str, Any]) -> str:
    name = a["card"]["name"][:6]
    mark = "~" if a["released"] else ""
    stance = "A" if a["stance"] == "attack" else "D"
    fam = "+" if a["familiar"] else ""
    return f"{mark}{name}{a['card']['level']}{fam} {a['hp']}/{a['max_hp']}{stance}"


def grid(e: dict[str, Any], board: dict[str, Any]) -> list[str]:
    """The board at the end of a turn: our half, the Invasion Zone and the opponent's Backline."""
    rows, columns = board["rows"], board["columns"]
    top = 2 * rows - 1
    cells: dict[tuple[int, int], str] = {}
    ours = board["stronghold"]
    cells[(ours["row"], ours["column"])] = f"[SH {e['hp']} HP]"
    theirs = (top - ours["row"], columns - 1 - ours["column"])
    cells[theirs] = f"[their SH {e['opponent_hp']}]"
    for x in e["enemies"]:
        s = x["space"]
        if s["row"] >= 0:
            cells[(s["row"], s["column"])] = f"*{x['card']['name'][:8]}{x['card']['level']}"
    for a in e["allies"]:
        s = a["space"]
        if isinstance(s, dict):
            cells[(s["row"], s["column"])] = _ally_cell(a)
    lines = [("      " + "".join(_cell(f"  {chr(ord('a') + c)}") for c in range(columns))).rstrip()]
    for r in range(top, -1, -1):
        label = _ROW_NAMES[r] if rows == 2 and r < len(_ROW_NAMES) else ""
        lines.append(f"   {r + 1:>2} " + "".join(_cell(cells.get((r, c), ".")) for c in range(columns)).rstrip()
                     + (f"   {label}" if label else ""))
    return lines


def _end_of_turn(e: dict[str, Any], board: dict[str, Any]) -> list[str]:
    cz = [a for a in e["allies"] if a["space"] == "command_zone"]
    lines = [f"  End of turn {e['turn']}:"] + grid(e, board)
    lines.append("      (name+level HP/max, A Attack / D Defense Stance, + holds a familiar, ~ Released "
                 "familiar, * the opponent's)")
    lines.append(f"  Command Zone: {', '.join(_ally_cell(a) for a in cz) or 'empty'}"
                 + (f"; theirs: {card(e['opponent_command_zone'])}" if e["opponent_command_zone"] else ""))
    fams = [a for a in e["allies"] if a["familiar"]]
    if fams:
        lines.append("  Familiars: " + ", ".join(f"{card(a['familiar'])} with {card(a['card'])}" for a in fams))
    lines.append(f"  Hand ({len(e['hand'])}): {cards(e['hand']) if e['hand'] else 'empty'}"
                 + (f"; familiars: {cards(e['familiar_hand'])}" if e["familiar_hand"] else ""))
    left = e["opponent_stronghold"]
    their_sh = "" if left is None else f" ({left} card{'' if left == 1 else 's'} left)"
    lines.append(f"  Stronghold {e['stronghold']} cards, Standby Zone {e['standby']}; Stronghold HP: ours "
                 f"{e['hp']}, theirs {e['opponent_hp']}{their_sh}.")
    lines.append(f"  AP: ours {e['ap']}, the opponent's {e['opponent_ap']} (it takes no turn, G4).")
    return lines
