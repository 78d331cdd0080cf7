"""Deck validation: construction rules (as data) checked against a card database."""
