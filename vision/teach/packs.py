"""The packs a table can teach, each card mapped onto the engine's codes.

Every pack's cards are named by the engine's codes (``Ah``, ``Td``), so a taught pack is refereed
like the shipped ones. The Swiss-German and William Tell suits map as the rulebook maps them:
Rosen/Herz hearts, Schellen diamonds, Schilten/Laub spades, Eicheln clubs; Under/Unter the jack,
Ober the queen. The Tell pack's 33rd card, the Weli, is the Schellen 6 of that pack and is taught
as ``6d``, the code Kratzen's referee gives it (:data:`engine.kratzen.WELI`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DECK, GERMAN_RANK_NAMES, GERMAN_SUIT_NAMES


@dataclass(frozen=True)
class Pack:
    name: str  # what --pack and the page call it
    title: str
    codes: tuple[str, ...]  # the engine's codes of its cards, in teaching order
    german: bool  # its cards are called by German names (Rosen Ass), else French (Ace of hearts)

    def card_name(self, code: str) -> str:
        """What the page asks for: 'Rosen Ass', 'Ace of hearts', 'Weli'."""
        tell = self.name == "tell-33"
        if tell and code == "6d":
            return "Weli"
        if not self.german:
            return next(c for c in DECK if c.code == code).name("french")
        suit = (TELL_SUITS if tell else GERMAN_SUIT_NAMES)[code[1]]
        rank = GERMAN_RANK_NAMES[code[0]]
        return f"{suit} {'Unter' if tell and code[0] == 'J' else '10' if tell and code[0] == 'T' else rank}"


TELL_SUITS = {"h": "Herz", "d": "Schellen", "s": "Laub", "c": "Eichel"}
_ALL = tuple(c.code for c in DECK)
_TELL = tuple(c for c in _ALL if c[0] != "6") + ("6d",)

PACKS = {p.name: p for p in (
    Pack("swiss-french", "Swiss-French 36", _ALL, False),
    Pack("swiss-german", "Swiss-German 36", _ALL, True),
    Pack("poker-36", "Poker pack, 6 to ace (36)", _ALL, False),
    Pack("tell-33", "William Tell 33 (with the Weli)", _TELL, True),
)}


def pack_named(name: str) -> Pack:
    try:
        return PACKS[name]
    except KeyError:
        raise ValueError(f"unknown pack {name!r}; choose from {', '.join(PACKS)}") from None
