"""Rule violations the referee flags, with the evidence that proves them (RULES.md §6)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RULE_TEXT = {
    "revoke": "did not follow the led suit while holding it",
    "failed_trump": "could not follow, held a trump, and played a plain card",
    "card_seen_twice": "a card that was already played in this hand",
    "upcard_played": "a card that lies face up on the table",
    "card_known_elsewhere": "a card known to be in another player's hand",
    "card_not_in_hand": "a card the player does not hold",
    "inactive_player": "a player who said weg played a card",
    "out_of_turn": "played out of turn",
    "extra_card": "a card more than the player may play",
}

# Flags that a house rule may turn into a failed contract (RULES.md §7 "Revoke penalty").
OBLIGATION_RULES = frozenset({"revoke", "failed_trump"})


@dataclass
class Flag:
    """One flagged play. ``id`` is stable across replays so the table can rule on it."""

    id: str
    trick: int
    player: str
    rule: str
    card: str
    evidence: list[str] = field(default_factory=list)
    raised_at: int = 0
    status: str = "open"  # open | upheld | dismissed

    @property
    def text(self) -> str:
        return RULE_TEXT[self.rule]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "trick": self.trick, "player": self.player, "rule": self.rule,
            "text": self.text, "card": self.card, "evidence": list(self.evidence),
            "raised_at": self.raised_at, "status": self.status,
        }
