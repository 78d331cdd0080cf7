"""`sengoku cards`: browse a card database as a table or as JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from sengoku.cli import app
from sengoku.cli.db import exit_with
from sengoku.cli.games import show_cards
from sengoku.cli.streams import write_document
from sengoku.cli.tables import cell, console
from sengoku.display import json_text
from sengoku.games import DEFAULT_GAME, game_code
from sengoku.paths import DB_ENV


@app.command("cards")
def cards(
    query: Optional[str] = typer.Argument(
        None, metavar="QUERY", help="Show cards whose name contains this text (case-insensitive), or whose id is exactly it."
    ),
    kind: Optional[str] = typer.Option(
        None, "--kind", help="Only this kind: main, support, nameless, familiar (another game's database: its own kinds)."
    ),
    level: Optional[str] = typer.Option(None, "--level", help="Only this level: 1, 2, 3 or 4."),
    weapon: Optional[str] = typer.Option(
        None, "--weapon",
        help="Only characters with this weapon: greatsword, longsword, dual_blades, dagger, greatshield, "
        "battle_axe, warhammer, magic_stone, spear, bow ('dual blades' works too).",
    ),
    attribute: Optional[str] = typer.Option(
        None, "--attribute", help="Only this attribute: fire, water, lightning, earth, wind, dark, holy."
    ),
    db: Optional[Path] = typer.Option(
        None, "--db", readable=False, envvar=DB_ENV, show_envvar=True,
        help="Card database file or folder to read. Default: $SENGOKU_DB, else the bundled sample set.",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the matching cards as a JSON list, with the database's own field names."
    ),
    game: Optional[str] = typer.Option(
        None, "--game", help="Show another game's cards (see `sengoku games`): senjutsu, fe-tcg, clan-tactics, "
        "champions; every field as a column. QUERY, --kind, --db and --json work for them too.",
    ),
) -> None:
    """List cards of a card database, filtered by kind, level, weapon, attribute and name.

    Prints a table (or with --json, a JSON list) to stdout and the count to stderr. A filter
    value that is not valid exits with code 2 and lists the valid ones.
    """
    if game is not None and game.strip().lower() != DEFAULT_GAME:  # issue 5: cli/games.py shows other games
        show_cards(game.strip().lower(), query, kind, db, as_json, level=level, weapon=weapon, attribute=attribute)
        return
    # deferred: start-up time of other commands
    from sengoku.carddb.load import load_card_db
    from sengoku.carddb.query import CardQuery, QueryError, choices_for, find_cards

    database = load_card_db(db)
    try:
        q = CardQuery.parse(query, choices=choices_for(database), kind=kind, level=level, weapon=weapon,
                            attribute=attribute)
    except QueryError as exc:
        # A usage error: exit 2 with the valid choices (handled here, not left to click).
        typer.echo(f"error: --{exc.field}: {exc}", err=True)
        exit_with(2)
    found = find_cards(database, q)
    if as_json:
        write_document(json_text(found, indent=2) + "\n", "json")
    else:
        title = database.meta.name + (" (SAMPLE DATA)" if database.meta.sample else "")
        code = game_code(database.meta.game)
        TABLES[code.card_table if code is not None else "every-field"](found, title)
    typer.echo(f"{len(found)} of {len(database.cards)} cards", err=True)


def _stats(card: dict[str, Any]) -> tuple[str, str, str]:
    boost = card.get("boost", {})
    phys, mag = boost.get("physical", []), boost.get("magic", [])
    boosts = "/".join("+".join(map(str, b)) or "-" for b in (phys, mag)) if (phys or mag) else ""
    return f"{card['atk']}/{card['mat']}", f"{card['def']}/{card['mdf']}", boosts


def _generic_table(found: list[dict[str, Any]], title: str) -> None:
    """Show any game's cards: id, name, kind, then every other field the cards have."""
    # deferred: start-up time of the commands that print no table
    from rich.table import Table

    from sengoku.carddb.card_rows import card_rows

    columns, rows = card_rows(found)
    table = Table(title=cell(title), title_justify="left", highlight=False)
    for col in columns:
        table.add_column(cell(col.replace("_", " ")))
    for row in rows:
        table.add_row(*map(cell, row))
    console().print(table)


def _sengoku_table(found: list[dict[str, Any]], title: str) -> None:
    """Show SENGOKU YUGI cards with their printed numbers (C1, C4) side by side."""
    # deferred: start-up time of the commands that print no table
    from rich.table import Table

    out = console()
    table = Table(title=cell(title), title_justify="left", highlight=False)
    table.add_column("id", no_wrap=True)
    table.add_column("name / epithet")
    table.add_column("kind")
    for col in ("Lv", "cost", "CV"):
        table.add_column(col, justify="right")
    table.add_column("weapon / egg")
    table.add_column("attr")
    table.add_column("ATK/MAT", justify="right")
    table.add_column("DEF/MDF", justify="right")
    table.add_column("boost")
    table.add_column("abilities")
    for card in found:
        atk, dfn, boost = _stats(card)
        if card["kind"] == "familiar":
            cost = card["contract_cost"]
            detail = "Familiar Egg" if card["is_egg"] else (f"from {card['evolves_from']}" if card["evolves_from"] else "")
        else:
            cost = card["deployment_cost"]
            detail = f"{card['weapon'].replace('_', ' ')} ({card['gender'][0].upper()})"
        abilities = ", ".join(a["name"] for a in card.get("abilities", []))
        table.add_row(cell(card["id"]), f"{cell(card['name'])}\n[dim]{cell(card['epithet'])}[/dim]", card["kind"],
                      str(card["level"]), str(cost), str(card["charge_value"]), cell(detail), card["attribute"], atk,
                      dfn, boost, cell(abilities))
    out.print(table)


# The registry's `card_table` -> table renderer.
TABLES = {"sengoku": _sengoku_table, "every-field": _generic_table}
