"""A big card database's index, remembered: a later run reads only the cards its decks name.

Parsing a 100,000-card `cards.json` (74 MB) takes seconds; a deck names forty cards. Once a
database has passed its checks (`load.read_checked`), its cards and the keys a decklist finds
them by (exact id, folded id, folded name: what `index.CardIndex` holds) are written to an
SQLite file named by the SHA-256 of the database's bytes, when the same bytes are read a second
time at the same path (the first reading leaves only a note: a CI job that starts from an empty
cache folder never pays for an index nobody will read). Later runs look cards up there, one at a
time, and never parse the JSON.

Which bytes a path holds now: a small note per path records the file's identity when it was
read (device, inode, size, modification and change times in ns) beside its SHA-256. A run whose
`stat` gives the same identity takes that SHA-256 without reading the file (reading and hashing
74 MB costs ~0.1 s, a third of a warm run's budget). This is the check `make` and git rely on,
made stronger by the change time: every write sets it, and no program can set it back (only the
clock can). The gap git closes is closed the same way: a file changed in the same clock tick as
it was read keeps its times, so a note taken less than `RACY_NS` after the file's last change is
not trusted; the file is hashed instead, and the note renewed once the file is old enough.

An index is keyed by the database's bytes plus the sengoku version, the Unicode version (name
folding), the Python version (`marshal`) and its card schema's bytes, and written only for a
database that passed every check: it is a pass of `sengoku.pass_cache` too. Files under
`load.INDEX_MIN_BYTES` are not indexed: parsing them is as quick as opening an index.

Never trusted to be whole: an index is built in a temporary file, synced and renamed into place,
then never changed (readers open it immutable); every stored value carries a CRC-32 of its key
and bytes. Whatever goes wrong reading one (missing, truncated, foreign, corrupt, deleted by
another run's pruning) makes the run read `cards.json` itself, as if nothing were remembered,
whether at the start or halfway through. The folder is the user's own, as the pass cache's: its
files are assumed damaged at worst, not crafted (`marshal` is not meant for hostile bytes). At
most `KEEP` indexes and `KEEP_NOTES` notes are kept, the least recently used dropped first.
The folder follows the pass cache's rules: $SENGOKU_CACHE_DIR, SENGOKU_NO_CACHE=1.

One job a module:

- `folder`: the cache folder, and its pruning (least recently used first);
- `identity`: a cards file's identity (`Look`), and when it can be trusted;
- `notes`: the note per path that pairs an identity with its SHA-256;
- `layout`: the index file's format: its name, tables, CRCs, and its writer;
- `reader`: one open index file, answering from its tables or, once it fails, from the parse;
- `views`: the cards and lookups an index gives, as the parsed `{id: card}` and `CardIndex` give them;
- `remembered`: the orchestration: open the index of a file read before, remember one just read.
"""
