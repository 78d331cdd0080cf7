"""A set of decks as data: a manifest names card databases and generated decks; `build_deckset` makes them.

Issue 36 splits the decks a policy is measured on into a *fit* set (the only one used to choose a
setting or fit a rule) and a *test* set (what the policy table reports). Each set is a TOML
manifest (`benchmarks/decksets/fit.toml`, `test.toml`)::

    set = "test"
    digest = "<sha256 of every deck's and database's hash>"   # what the set must build to

    [databases]
    bundled = { bundled = true }       # the bundled sample set
    gen-1001 = { seed = 1001 }         # generate_card_db(1001)

    [[decks]]                          # one deck per database, profile and seed
    databases = ["bundled", "gen-1001"]
    profiles = ["low-curve", "ultimate"]
    seeds = [1]

    [[decklists]]                      # decklists kept as files, over the bundled database
    path = "../../decklists/suite"     # a file or a folder of *.toml, from the manifest's folder

A deck is known by its deck hash (`validate.deck_hash`: its cards, counts, mode and the card
database's own hash), a database by the SHA-256 of its `cards.json`; the digest is taken over
both, so a change to a generator, to the bundled cards or to a listed decklist that would change
a set is caught where the set is built.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.digests import sha256_hex
from sengoku.errors import DataError
from sengoku.carddb.load import resolve_cards_file
from sengoku.files import CARD_DB_BYTES, RULES_BYTES, loads_toml, read_input, read_text_input
from sengoku.generate.cards import card_db_json, generate_card_db
from sengoku.generate.decks import PROFILES, cards_of, deck_toml, generate_deck
from sengoku.paths import data_dir
from sengoku.validate.api import validate_file
from sengoku.writes import write_atomically

_TOP_KEYS = {"set", "digest", "databases", "decks", "decklists"}


@dataclass(frozen=True)
class DeckSpec:
    """One generated deck: the database it is drawn from, its profile and its seed."""

    database: str
    profile: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.database}/{self.profile}-{self.seed}"


@dataclass(frozen=True)
class DeckSet:
    """A manifest as read: databases (name -> generator seed, None for the bundled one), decks, decklist files."""

    name: str
    path: Path
    digest: str | None
    databases: dict[str, int | None]
    decks: list[DeckSpec]
    decklists: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class BuiltDeck:
    """A deck of a built set: its name, decklist file, card database folder and deck hash."""

    name: str
    decklist: Path
    db: Path
    deck_hash: str
    mode: str


@dataclass(frozen=True)
class BuiltSet:
    """A set built into a folder: every deck, every database's hash, and the digest over them."""

    decks: list[BuiltDeck]
    database_hashes: dict[str, str]
    digest: str


def _fail(path: Path, message: str) -> DataError:
    return DataError(path, message)


def _names(path: Path, where: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise _fail(path, f"{where} must be a list of names")
    return value


def load_deckset(path: Path | str) -> DeckSet:
    """Read and check a deck set manifest; raise DataError naming the file and the key that is wrong."""
    path = Path(path)
    raw = loads_toml(read_text_input(path, RULES_BYTES)[0], path)
    unknown = sorted(set(raw) - _TOP_KEYS)
    if unknown:
        raise _fail(path, f"unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_TOP_KEYS))})")
    if not isinstance(raw.get("set"), str):
        raise _fail(path, "`set` must name the set (e.g. \"fit\" or \"test\")")
    databases: dict[str, int | None] = {}
    for name, spec in dict(raw.get("databases", {})).items():
        if spec == {"bundled": True}:
            databases[name] = None
        elif isinstance(spec, dict) and set(spec) == {"seed"} and type(spec["seed"]) is int and spec["seed"] >= 0:
            databases[name] = spec["seed"]
        else:
            raise _fail(path, f"databases.{name} must be {{ bundled = true }} or {{ seed = N }} (N >= 0)")
    decks: list[DeckSpec] = []
    for k, group in enumerate(raw.get("decks", [])):
        where = f"decks[{k}]"
        if not isinstance(group, dict) or set(group) != {"databases", "profiles", "seeds"}:
            raise _fail(path, f"{where} must have exactly databases, profiles and seeds")
        for db in _names(path, f"{where}.databases", group["databases"]):
            if db not in databases:
                raise _fail(path, f"{where}.databases names {db!r}, which [databases] does not define")
        for profile in _names(path, f"{where}.profiles", group["profiles"]):
            if profile not in PROFILES:
                raise _fail(path, f"{where}.profiles names {profile!r} (known: {', '.join(PROFILES)})")
        seeds = group["seeds"]
        if not isinstance(seeds, list) or not seeds or not all(type(s) is int and s >= 0 for s in seeds):
            raise _fail(path, f"{where}.seeds must be a list of whole numbers of 0 or more")
        decks += [DeckSpec(db, profile, seed) for db in group["databases"] for profile in group["profiles"]
                  for seed in seeds]
    twice = sorted({d.name for d in decks if decks.count(d) > 1})
    if twice:
        raise _fail(path, f"deck(s) listed twice: {', '.join(twice)}")
    decklists: list[Path] = []
    for k, entry in enumerate(raw.get("decklists", [])):
        if not isinstance(entry, dict) or set(entry) != {"path"} or not isinstance(entry["path"], str):
            raise _fail(path, f"decklists[{k}] must have exactly a path")
        target = (path.parent / entry["path"]).resolve()
        found = sorted(target.glob("*.toml")) if target.is_dir() else [target] if target.is_file() else []
        if not found:
            raise _fail(path, f"decklists[{k}].path {entry['path']!r} holds no decklist")
        decklists += found
    digest = raw.get("digest")
    if digest is not None and not isinstance(digest, str):
        raise _fail(path, "`digest` must be a string")
    return DeckSet(raw["set"], path, digest, databases, decks, decklists)


def build_deckset(deckset: DeckSet, folder: Path | str) -> BuiltSet:
    """Write every generated database and deck of a set under `folder` and validate each deck against its
    database; return the decks, their hashes and the set's digest. A deck that is not valid is an error."""
    folder = Path(folder)
    bundled = data_dir("card_db") / "sengoku"
    db_paths: dict[str, Path] = {}
    db_hashes: dict[str, str] = {}
    for name, seed in deckset.databases.items():
        if seed is None:  # the bundled database itself, whatever $SENGOKU_DB says
            db_paths[name] = bundled
            db_hashes[name] = sha256_hex(read_input(resolve_cards_file(bundled), CARD_DB_BYTES))
            continue
        text = card_db_json(generate_card_db(seed))
        (folder / name).mkdir(parents=True, exist_ok=True)
        write_atomically(folder / name / "cards.json", text, replace=True)
        db_paths[name] = folder / name
        db_hashes[name] = sha256_hex(text.encode("utf-8"))
    rows = {name: cards_of(p) for name, p in db_paths.items()}
    built: list[BuiltDeck] = []
    for spec in deckset.decks:
        deck = generate_deck(rows[spec.database], spec.profile, spec.seed, name=f"{deckset.name} set: {spec.name}")
        target = folder / "decks" / spec.database / f"{spec.profile}-{spec.seed}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, deck_toml(deck, f"The {deckset.name} set's deck {spec.name} (sengoku.generate): "
                                                 "built from its manifest, never edited"), replace=True)
        built.append(_checked(spec.name, target, db_paths[spec.database]))
    for file in deckset.decklists:
        built.append(_checked(f"file/{file.stem}", file, bundled))
    return BuiltSet(built, db_hashes, set_digest(built, deckset.databases, db_hashes))


def _checked(name: str, decklist: Path, db: Path) -> BuiltDeck:
    result = validate_file(decklist, db)
    if not result.valid or result.deck_hash is None:
        messages = "; ".join(v.message for v in result.violations[:3])
        raise DataError(decklist, f"the deck {name} is not valid: {messages}")
    return BuiltDeck(name, decklist, db, result.deck_hash, result.mode)


def set_digest(decks: list[BuiltDeck], databases: dict[str, int | None], db_hashes: dict[str, str]) -> str:
    """SHA-256 over the sorted deck names and hashes and the databases' names, seeds and hashes."""
    h = hashlib.sha256()
    for d in sorted(decks, key=lambda d: d.name):
        h.update(f"deck {d.name} {d.deck_hash}\n".encode())
    for name in sorted(databases):
        h.update(f"database {name} {databases[name]} {db_hashes[name]}\n".encode())
    return h.hexdigest()
