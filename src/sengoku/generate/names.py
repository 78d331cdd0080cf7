"""Names for a generated set: invented, unique within the set, in the game's style."""

from __future__ import annotations

import random

_SYLLABLES = ("ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se", "so", "ta", "chi", "tsu", "te", "to", "na",
              "ni", "no", "ha", "hi", "fu", "ho", "ma", "mi", "mu", "me", "mo", "ya", "yu", "yo", "ra", "ri", "ru",
              "re", "ro", "wa", "ga", "gi", "go", "da", "do", "ba", "bu", "ji", "zu", "ze")
_ADJECTIVES = ("Silent", "Crimson", "Iron", "Wandering", "Azure", "Golden", "Storm", "Moonlit", "Ashen", "Jade",
               "Hidden", "Thunder", "Frost", "Verdant", "Shadow", "Radiant", "Restless", "Stone", "Swift", "Ember",
               "Misty", "Scarlet", "Sworn", "Bold", "Quiet", "Northern", "Western", "River", "Mountain", "Lotus")
_NOUNS = ("Blade", "Archer", "Lancer", "Monk", "Warden", "Sage", "Captain", "Rider", "Banner", "Spear", "Fox",
          "Crane", "Tiger", "Oracle", "Envoy", "Guardian", "Duelist", "Hermit", "Herald", "Raider", "Pilgrim",
          "Steward", "Drummer", "Scout", "Weaver", "Ronin", "Falcon", "Wolf", "Lantern", "Gate")
_COLOURS = ("Amber", "Ivory", "Coral", "Onyx", "Azure", "Scarlet", "Silver", "Indigo", "Jade", "Ochre")


class Names:
    """Draws names, epithets and Egg colours from one generator, never the same twice."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, draw: object) -> str:
        for _ in range(1000):
            text = draw() if callable(draw) else str(draw)
            if text not in self.used:
                self.used.add(text)
                return text
        raise RuntimeError("no fresh name after 1000 draws")  # the lists above give thousands

    def name(self) -> str:
        """A character's or familiar's name: two or three syllables."""
        return self._fresh(lambda: "".join(self.rng.choice(_SYLLABLES)
                                           for _ in range(self.rng.choice((2, 3, 3)))).capitalize())

    def epithet(self) -> str:
        return self._fresh(lambda: f"{self.rng.choice(_ADJECTIVES)} {self.rng.choice(_NOUNS)}")

    def noun(self) -> str:
        return self._fresh(lambda: self.rng.choice(_NOUNS) + " of the " + self.rng.choice(_ADJECTIVES) + " Road")

    def colour(self) -> str:
        return self._fresh(lambda: self.rng.choice(_COLOURS))
