"""`sengoku games`: the card games sengoku knows, each a folder of data (cards.json + game.toml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from sengoku.cli import app
from sengoku.cli.streams import write_document


@app.command("games")
def games(
    as_json: bool = typer.Option(False, "--json", help="Print the games as a JSON list instead of a table."),
) -> None:
    """List the games whose decklists sengoku validates, with their card databases and rules.

    For each game: its id (the `game` key of a decklist), title, how many cards its bundled database holds, the decklist sections, whether the cards are invented sample data, its rule ids, and whether it deals an opening hand from a shuffled deck (what `sengoku goldfish` can compute for it). Exit 2 if a game's data cannot be read.
    """
    from sengoku.carddb.gamelist import list_games

    found = list_games()
    if as_json:
        import json

        write_document(json.dumps([g.as_dict() for g in found], ensure_ascii=False, indent=2) + "\n", "json")
    else:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        console = Console(highlight=False)
        if not console.is_terminal:
            console.width = max(console.width, 160)
        table = Table(title="Games", title_justify="left", highlight=False)
        for col in ("game", "title", "cards", "sections", "sample", "opening hand", "rules"):
            table.add_column(col, justify="right" if col == "cards" else "left")
        for g in found:
            hand = g.opening_hand.describe() if g.opening_hand else ("5, by the rules engine" if g.goldfish == "engine" else "none")
            table.add_row(g.id, g.title, str(g.cards), ", ".join(g.sections), "yes" if g.sample else "no",
                          escape(hand), ", ".join(g.rules))
        console.print(table)
    typer.echo(f"{len(found)} games", err=True)


def show_cards(game_id: str, query: Optional[str], kind: Optional[str], db: Optional[Path], as_json: bool,
               **sengoku_only: Optional[str]) -> None:
    """`sengoku cards --game NAME` for a game beside SENGOKU YUGI: every field of its cards.

    `query` matches a card whose name contains it (case-insensitive) or whose id is exactly it;
    `kind` keeps one kind. An unknown game or kind, or a SENGOKU YUGI-only filter (--level,
    --weapon, --attribute), exits 2 naming the valid ones.
    """
    import os

    from sengoku.paths import DB_ENV

    given = [name for name, value in sengoku_only.items() if value is not None]
    if given:
        typer.echo(f"error: --{given[0]} filters SENGOKU YUGI cards only; with --game use QUERY or --kind", err=True)
        raise SystemExit(2)
    if db is not None and str(db) == os.environ.get(DB_ENV):
        db = None  # $SENGOKU_DB names the SENGOKU YUGI database, not this game's
    from sengoku.carddb.gamelist import card_rows
    from sengoku.carddb.load import load_card_db
    from sengoku.errors import DataError
    from sengoku.games import default_db_folder, get_game

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
        import json

        write_document(json.dumps(cards, ensure_ascii=False, indent=2) + "\n", "json")
    else:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table

        console = Console(highlight=False)
        if not console.is_terminal:
            console.width = max(console.width, 160)
        columns, rows = card_rows(cards)
        table = Table(title=database.meta.name + (" (SAMPLE DATA)" if database.meta.sample else ""),
                      title_justify="left", highlight=False)
        for col in columns:
            table.add_column(col.replace("_", " "))
        for row in rows:
            table.add_row(*(escape(v) for v in row))
        console.print(table)
    typer.echo(f"{len(cards)} of {len(database.cards)} cards", err=True)


def goldfish_other_game(deck: Path, db: Optional[Path], runs: int, seed: int, wants: list[str], as_json: bool,
                        **sengoku_only: object) -> bool:
    """`sengoku goldfish DECK` for a game beside SENGOKU YUGI; return False for a SENGOKU YUGI deck.

    Prints the opening-hand report (goldfish/other_games.py). `sengoku_only` are the options
    that drive SENGOKU YUGI's turn-by-turn engine; given here (not None) they are refused with
    exit 2. A game without an opening hand exits 2 saying why; an invalid deck exits 1 with the
    validator's report; a simulated value far from its exact one exits 1.
    """
    from sengoku.decklist.read import read_decklist
    from sengoku.games import DEFAULT_GAME

    decklist, syntax = read_decklist(deck)
    if decklist.game == DEFAULT_GAME:  # (also a deck naming an unknown game: the engine path reports it)
        return False
    given = [name for name, value in sengoku_only.items() if value is not None]
    if given:
        typer.echo(f"error: --{given[0]} drives SENGOKU YUGI's turn-by-turn engine; a {decklist.game} deck "
                   "gets its opening hand only (options: --runs, --seed, --want, --json, --db)", err=True)
        raise SystemExit(2)
    import time

    from sengoku.goldfish.api import InvalidDeckError
    from sengoku.goldfish.other_games import NoOpeningHandError, opening_hand_report, render_text

    started = time.perf_counter()
    try:
        report = opening_hand_report(decklist, db, runs=runs, seed=seed, wants=wants)
    except NoOpeningHandError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
    except InvalidDeckError as exc:
        from sengoku.goldfish.report import validation_report

        typer.echo(f"error: {exc}", err=True)
        typer.echo(validation_report(exc.validation), err=True, nl=False)
        raise SystemExit(1) from None
    elapsed = time.perf_counter() - started
    if as_json:
        import json

        write_document(json.dumps(report, ensure_ascii=False, indent=2) + "\n", "json")
    else:
        typer.echo(render_text(report), nl=False)
    typer.echo(f"{runs} opening hands dealt in {elapsed:.2f} s", err=True)
    for err in report["errors"]:
        typer.echo(f"error: {err}: a bug in the simulation, please report it", err=True)
    if not report["ok"]:
        raise SystemExit(1)
    return True
