"""Why the referee refuses an event: a code and its values, with the English sentence.

The code and values travel with the refusal so that a page can say it in its own language
(``webui/static/i18n.js`` has every code); the engine itself speaks English only.
"""

from __future__ import annotations

from typing import Any

REASONS: dict[str, str] = {
    # a hand's events
    "not_in_hand": "a {event!r} event does not belong inside a hand",
    "hand_over": "this hand is over; start the next hand",
    "not_seated": "{name!r} is not seated at this hand (seats: {seats})",
    "not_playing": "{player} is not playing this hand",
    "no_upcard_now": "no upcard is turned during {phase}",
    "upcard_again": "{card} was already turned up in this hand",
    "stock_empty": "the stock is empty: no new upcard can be turned",
    "no_bids_now": "no bids are taken during {phase}",
    "double_blind_off": "double blind is not allowed at this table",
    "double_blind_late": "double blind must be announced before the upcard is turned",
    "double_blind_dealer": "only the dealer may play double blind",
    "blind_off": "blind is not allowed at this table",
    "blind_when": "blind must be announced after the first upcard, before any bid",
    "blind_dealer": "only the dealer may play blind",
    "bannerrunde_dealer": "Bannerrunde: {player} (the dealer) must chratze",
    "bid_turn": "it is {player}'s turn to bid",
    "chratze_or_weg": "nobody has chratzed yet: the bid is chratze or weg",
    "one_chratzer": "{player} already chratzes: only one Chratzer per hand",
    "join_turn": "it is {player}'s turn to say metcho or weg",
    "bannerrunde_all": "Bannerrunde: everyone must come along",
    "letzter": "Letzter: the last player asked must come along when nobody else does",
    "exchange_when": "cards are exchanged after the auction and before the first card",
    "exchange_turn": "it is {player}'s turn to exchange",
    "exchange_count": "{player} holds {held} cards and can lay down 0 to {held}, not {count}",
    "swap_when": "the trump 6 is swapped after the auction, before the first lead",
    "swap_blind": "the upcard of a blind cannot be taken with the trump 6",
    "swap_again": "the trump 6 was already swapped",
    "swap_six_up": "the upcard is the trump 6 itself",
    "swap_no_six": "{player} does not hold the trump 6",
    "hands_known_when": "hands are made known after the auction, before the first lead",
    "hands_missing": "hands missing for {players}",
    "hand_size": "{player} must hold {held} different cards, got {count}",
    "hand_clash": "{player}'s hand has {card}, which is elsewhere",
    "hand_lacks": "{player} must hold {card}, taken from the table",
    "no_flag": "no flag {flag!r} in this hand",
    "no_play_now": "no card is played during {phase}",
    "nobody_to_play": "nobody is to play now",
    "need_known_hands": "legal moves need known hands",
    # a hand's start
    "player_count": "Chratze is played by {low} to {high} players, not {count}",
    "seat_once": "each player may sit only once",
    "dealer_not_seated": "the dealer {dealer!r} is not seated",
    "negative_money": "ante and carried pot must not be negative",
    # the session's record
    "nothing_to_undo": "nothing to undo",
    "not_in_effect": "event {target} is not in effect and cannot be corrected",
    "not_correctable": "event {target} is a {kind!r}, not an upcard or a play",
    "not_movable": "event {target} is a {kind!r}, not a play",
    "move_across_hands": "event {target} is a play of an earlier hand: it stays there",
    "correction_impossible": "that correction makes the record impossible: {reason}",
    "no_hand": "no hand has started: seat the players and start a hand first",
    "seat_first": "seat the players for the first hand",
    "carried_wrong": "the pot carried into this hand is {pot}, not {carried}",
    "ante_wrong": "the ante for this hand is {ante}, not {given}",
    "rules_mid_hand": "house rules change between hands: finish or abandon hand {hand} first",
    "no_such_hand": "no earlier hand {hand} to rule on (hands so far: {hands})",
    "chratze_only": "this evening is Kratzen: {what} belongs to Chratze",
    "kratzen_dealer": "in Kratzen the deal passes to the left: {dealer} deals, not {given}",
}


class IllegalEvent(ValueError):
    """An event that cannot happen now; the message is the reason, for the person at the table.

    ``code`` and ``values`` say the same for a page in another language (``REASONS``)."""

    def __init__(self, message: str, code: str | None = None, values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.values = values or {}

    def to_dict(self) -> dict[str, Any]:
        """The refusal as JSON: the English reason, and the code and values where it has them."""
        out: dict[str, Any] = {"error": str(self)}
        if self.code:
            out.update(code=self.code, values={k: v.to_dict() if isinstance(v, IllegalEvent) else v
                                               for k, v in self.values.items()})
        return out


def refused(code: str, **values: Any) -> IllegalEvent:
    """The refusal ``code`` with its values (plain JSON values, or a refusal it wraps)."""
    return IllegalEvent(REASONS[code].format(**values), code, values)
