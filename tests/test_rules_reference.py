"""docs/rules.md is where a rule id leads: every id the code cites has a row there, and the
page's own ids, links and named tests are sound."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"

# A rule id: the group's letter, its number, and a sub-rule letter where the rule has parts (T2a).
RULE_ID = re.compile(r"([CDSTMBKUAG])([1-9][0-9]?)([a-c]?)")
_ID = r"[CDSTMBKUAG][1-9][0-9]?[a-c]?"
# A citation: one id, or a range of ids of one group ("S1-S7", "D1–D8"), standing on its own.
# Not when glued to a word or number ("SY1", "A1B2", "T2d"), in a code point or a hex/colour value
# ("U+00C5", "0xD3", "#C5"), or part of a card id ("C5-001", "S1.2").
CITATION = re.compile(rf"(?<![\w+#.\-])({_ID})(?:[-–]({_ID}))?(?![\w+]|[-.]\d)")

# Python tokens that hold prose (comments, docstrings, messages); identifiers are not citations.
_PROSE_TOKENS = {tokenize.COMMENT, tokenize.STRING} | (
    {tokenize.FSTRING_MIDDLE} if hasattr(tokenize, "FSTRING_MIDDLE") else set())


def expand(first: str, last: str | None) -> list[str]:
    """Return the ids a citation names: one id, or every id of a range ("T1-T3" -> T1, T2, T3)."""
    if last is None:
        return [first]
    a, b = RULE_ID.fullmatch(first), RULE_ID.fullmatch(last)
    assert a is not None and b is not None
    group, n1, sub1 = a.groups()
    _, n2, sub2 = b.groups()
    if b.group(1) == group and not sub1 and not sub2 and int(n1) <= int(n2):
        return [f"{group}{n}" for n in range(int(n1), int(n2) + 1)]
    if b.group(1) == group and n1 == n2 and sub1 and sub2 and sub1 <= sub2:
        return [f"{group}{n1}{chr(c)}" for c in range(ord(sub1), ord(sub2) + 1)]
    return [first, last]


def citations(text: str) -> Iterator[str]:
    """Yield every rule id a piece of prose cites, ranges expanded."""
    for m in CITATION.finditer(text):
        yield from expand(m.group(1), m.group(2))


def cited_in_python(source: str) -> Iterator[tuple[int, str]]:
    """Yield (line, id) for every rule id cited in a Python file's comments and strings."""
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _PROSE_TOKENS:
            for offset, line_text in enumerate(tok.string.split("\n")):
                for rule in citations(line_text):
                    yield tok.start[0] + offset, rule


def cited_in_text(text: str) -> Iterator[tuple[int, str]]:
    """Yield (line, id) for every rule id cited in a data or Markdown file, line by line."""
    for number, line in enumerate(text.splitlines(), 1):
        for rule in citations(line):
            yield number, rule


def cited_in_project() -> dict[str, list[str]]:
    """Return each rule id cited in src/sengoku, the card DB's rule files, the README and the docs, with where."""
    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "src" / "sengoku").rglob("*.py")):
        for line, rule in cited_in_python(path.read_text(encoding="utf-8")):
            where.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{line}")
    pages = [p for p in sorted((ROOT / "docs").glob("*.md")) if p.name != "rules.md"]
    texts = sorted((ROOT / "card_db").rglob("game.toml")) + [ROOT / "README.md", *pages]
    for path in texts:
        for line, rule in cited_in_text(path.read_text(encoding="utf-8")):
            where.setdefault(rule, []).append(f"{path.relative_to(ROOT)}:{line}")
    return where


def table_rows(markdown: str) -> Iterator[tuple[str, list[str]]]:
    """Yield (section heading, cells) for every body row of the page's tables."""
    heading = ""
    for line in markdown.splitlines():
        if line.startswith("## "):
            heading = line[3:]
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] != "Id" and not set(cells[0]) <= set("-: "):
                yield heading, cells


def documented(markdown: str) -> dict[str, str]:
    """Return each id that has a row on the page, mapped to the heading of its table."""
    return {cells[0]: heading for heading, cells in table_rows(markdown)}


def undocumented(cited: dict[str, list[str]], ids: set[str]) -> list[str]:
    """Describe each cited id without a row, with the places that cite it."""
    return [f"{rule} (cited at {', '.join(places[:3])}{' …' if len(places) > 3 else ''})"
            for rule, places in sorted(cited.items()) if rule not in ids]


# ---- the scanner itself, on strings worked by hand ---------------------------------------------

def test_scanner_finds_citations_and_nothing_else() -> None:
    text = ('# T2a: gain 10 AP (M1), K4, spec = "D1"; setup S1-S7; M2/M3; T2a/U1; (SPEC G1-G3); '
            'D1–D8 and T2a-T2c. '
            'Not: SY1-001 U+00C5 0xD3 #C5 A1B2 T2d C5-001 S1.2 x_K4 K4x SPEC.md 12S3 E5')
    assert sorted(set(citations(text))) == sorted(
        {"T2a", "M1", "K4", "D1", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "M2", "M3", "U1",
         "G1", "G2", "G3", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "T2b", "T2c"})


def test_python_scan_reads_comments_and_strings_not_names() -> None:
    source = 'K4 = 1  # T2b\nx = "(U3)"\ndef f():\n    """Deploy (M1).\n\n    Then K5."""\n'
    assert list(cited_in_python(source)) == [(1, "T2b"), (2, "U3"), (4, "M1"), (6, "K5")]


def test_a_new_citation_without_a_row_is_reported() -> None:
    cited: dict[str, list[str]] = {}
    for line, rule in cited_in_python('x = 1  # K4 and the new K9\n'):
        cited.setdefault(rule, []).append(f"new.py:{line}")
    page = "## K: combat\n| Id | Rule |\n| --- | --- |\n| K4 | attacking the Stronghold |\n"
    assert undocumented(cited, set(documented(page))) == ["K9 (cited at new.py:1)"]


# ---- the project against the page ---------------------------------------------------------------

def test_every_cited_rule_id_has_a_row() -> None:
    cited = cited_in_project()
    # The scan must see the code's citations at all (a broken scanner would pass vacuously).
    assert {"D3", "T2a", "M1", "K4", "U5", "C5", "B1", "S8"} <= set(cited)
    missing = undocumented(cited, set(documented(RULES_MD.read_text(encoding="utf-8"))))
    assert not missing, "rule ids cited but not in docs/rules.md: " + "; ".join(missing)


def test_the_pages_ids_are_well_formed_and_complete_per_group() -> None:
    rows = list(table_rows(RULES_MD.read_text(encoding="utf-8")))
    ids = [cells[0] for _, cells in rows]
    assert len(ids) == len(set(ids)), "an id has two rows"
    by_group: dict[str, list[tuple[int, str]]] = {}
    for heading, cells in rows:
        m = RULE_ID.fullmatch(cells[0])
        assert m is not None, f"{cells[0]!r} is not a rule id"
        assert heading.startswith(f"{m.group(1)}: "), f"{cells[0]} sits under '## {heading}'"
        assert len(cells) == 5 and all(cells), f"{cells[0]}: every row has rule, guide, implemented, tested"
        by_group.setdefault(m.group(1), []).append((int(m.group(2)), m.group(3)))
    for group, numbers in by_group.items():
        # Numbers run 1, 2, 3 … without gaps; parts (T2a, T2b …) sit under their rule, from a.
        mains = [n for n, sub in numbers if not sub]
        assert mains == list(range(1, len(mains) + 1)), f"{group}: ids {mains} have a gap or are out of order"
        for n in {n for n, sub in numbers if sub}:
            subs = [sub for m, sub in numbers if m == n and sub]
            assert n in mains and subs == [chr(ord("a") + k) for k in range(len(subs))], f"{group}{n}: parts {subs}"
    assert set(by_group) == set("CDSTMBKUAG")


_LINK_OR_TEST = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)(\s*\*planned\*)?|`(test_[\w*]+)`")


def test_linked_files_and_named_tests_exist() -> None:
    problems = []
    for _, cells in table_rows(RULES_MD.read_text(encoding="utf-8")):
        for cell in cells[3:]:
            target: Path | None = None
            planned = False
            for m in _LINK_OR_TEST.finditer(cell):
                if m.group(1):
                    target, planned = (RULES_MD.parent / m.group(1)).resolve(), bool(m.group(2))
                    if not planned and not target.exists():
                        problems.append(f"{cells[0]}: {m.group(1)} does not exist")
                elif target is not None and target.is_file():
                    names = re.findall(r"^\s*(?:async\s+)?def (test_\w+)", target.read_text(encoding="utf-8"), re.M)
                    if not any(fnmatchcase(name, m.group(3)) for name in names):
                        problems.append(f"{cells[0]}: no test {m.group(3)} in {target.relative_to(ROOT)}")
                else:
                    problems.append(f"{cells[0]}: test {m.group(3)} follows no test file")
    assert not problems, "\n".join(problems)
