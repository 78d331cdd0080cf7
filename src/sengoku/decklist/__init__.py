"""Decklists: the TOML format, its reading (with line numbers) and its model."""
