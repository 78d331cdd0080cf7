"""The sengoku version, in a module of its own so that any layer can name it (reports, caches)."""

__version__ = "0.17.0"
