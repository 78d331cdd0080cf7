"""Tournament formats: dated banned / restricted / limited lists and allowed sets, kept as data.

A format is a TOML file `card_db/<game>/formats/<name>.toml` (schema:
`schemas/format.schema.json`). It holds one or more dated lists; the list in force on a date
is the one with the latest `effective` date on or before it. Modules, one job each:

- `model`: the `Format` / `FormatList` types and date handling;
- `load`: reading format files (`load_format`, `list_formats`);
- `legality`: a resolved deck against the list in force (`format_violations`);
- `check`: checking format files against the card database (`check_format_files`).
"""

from __future__ import annotations

from sengoku.formats.model import Format, FormatError, FormatList

__all__ = ["Format", "FormatError", "FormatList"]
