"""`sengoku games`: the card games sengoku knows, each a folder of data (cards.json + game.toml)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document
from sengoku.cli.tables import cell, console
from sengoku.display import json_text
from sengoku.errors import DataError
from sengoku.games import default_db_folder, get_game
from sengoku.paths import DB_ENV


@app.command("games")
def games(
    as_json: bool = typer.Option(False, "--json", help="Print the games as a JSON list instead of a table."),
) -> None:
    """List the games whose decklists sengoku validates, with their card databases and rules.

    For each game: its id (the `game` key of a decklist), title, how many cards its bundled database holds, the decklist sections, whether the cards are invented sample data, its rule ids, and whether it deals an opening hand from a shuffled deck (what `sengoku goldfish` can compute for it). Exit 2 if a game's data cannot be read.
    """
    # deferred: start-up time of other commands
    from sengoku.carddb.game_overview import list_games

    found = list_games()
    if as_json:
        write_document(json.dumps([g.as_dict() for g in found], ensure_ascii=False, indent=2) + "\n", "json")
    else:
        # deferred: rich's start-up time, paid only by commands that print a table
        from rich.markup import escape
        from rich.table import Table

        table = Table(title="Games", title_justify="left", highlight=False)
        for col in ("game", "title", "cards", "sections", "sample", "opening hand", "rules"):
            table.add_column(col, justify="right" if col == "cards" else "left")
        for g in found:
            hand = g.opening_hand.describe() if g.opening_hand else ("5, by the rules engine" if g.goldfish == "engine" else "none")
            table.add_row(g.id, g.title, str(g.cards), ", ".join(g.sections), "yes" if g.sample else "no",
                          escape(hand), ", ".join(g.rules))
        console().print(table)
    typer.echo(f"{len(found)} games", err=True)


def show_cards(game_id: str, query: Optional[str], kind: Optional[str], db: Optional[Path], as_json: bool,
               **sengoku_only: Optional[str]) -> None:
    """`sengoku cards --game NAME` for a game beside SENGOKU YUGI: every field of its cards.

    `query` matches a card whose name contains it (case-insensitive) or whose id is exactly it;
    `kind` keeps one kind. An unknown game or kind, or a SENGOKU YUGI-only filter (--level,
    --weapon, --attribute), exits 2 naming the valid ones.
    """
    given = [name for name, value in sengoku_only.items() if value is not None]
    if given:
        typer.echo(f"error: --{given[0]} filters SENGOKU YUGI cards only; with --game use QUERY or --kind", err=True)
        raise SystemExit(2)
    if db is not None and str(db) == os.environ.get(DB_ENV):
        db = None  # $SENGOKU_DB names the SENGOKU YUGI database, not this game's
    # deferred: start-up time of other commands
    from sengoku.carddb.card_rows import card_rows
    from sengoku.carddb.load import load_card_db

    game = get_game(game_id)  # DataError (exit 2) naming the known games
    database = load_card_db(db if db is not None else default_db_folder(game.id))
    if database.meta.game != game.id:
        raise DataError(database.path, f"this card database is for {database.meta.game!r}, not {game.id!r}")
    cards: list[dict[str, Any]] = [c.model_dump(mode="json", by_alias=True) for c in database.cards]
    if kind is not None:
        kinds = sorted({c["kind"] for c in cards})
        if kind.strip().lower() not in kinds:
            typer.echo(f"error: --kind: {kind!r} is no {game.title} card kind (valid: {', '.join(kinds)})", err=True)
            raise SystemExit(2)
        cards = [c for c in cards if c["kind"] == kind.strip().lower()]
    if query:
        q = query.strip().casefold()
        cards = [c for c in cards if c["id"] == query.strip() or q in c["name"].casefold()]
    if as_json:
        write_document(json_text(cards, indent=2) + "\n", "json")
    else:
        # deferred: rich's start-up time, paid only by commands that print a table
        from rich.table import Table

        columns, rows = card_rows(cards)
        table = Table(title=cell(database.meta.name + (" (SAMPLE DATA)" if database.meta.sample else "")),
                      title_justify="left", highlight=False)
        for col in columns:
            table.add_column(cell(col.replace("_", " ")))
        for row in rows:
            table.add_row(*map(cell, row))
        console().print(table)
    typer.echo(f"{len(cards)} of {len(database.cards)} cards", err=True)
