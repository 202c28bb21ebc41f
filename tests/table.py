"""A terse way to write a hand in a test: ``Table("Anna Beat Cla Doris").up("Ah").say(...)``."""

from __future__ import annotations

from engine import (BidMade, CardPlayed, Exchanged, Hand, HandsKnown, HandStarted, HouseRules,
                    TrumpSixSwapped, UpcardShown, card, cards)


class Table:
    def __init__(self, seats: str = "Anna Beat Cla Doris", dealer: str | None = None,
                 rules: HouseRules | None = None, carried: int = 0, **house: object) -> None:
        names = tuple(seats.split())
        rules = rules or HouseRules(**house)
        self.hand = Hand(HandStarted(names, dealer or names[0], rules.ante, carried), rules)

    def up(self, c: str) -> "Table":
        self.hand.apply(UpcardShown(card(c)))
        return self

    def say(self, script: str) -> "Table":
        """``"Beat weg, Cla chratze"``: bids in the order given."""
        for part in script.split(","):
            player, bid = part.split()
            self.hand.apply(BidMade(player, bid))
        return self

    def exchange(self, script: str) -> "Table":
        """``"Cla 2, Doris 0"``."""
        for part in script.split(","):
            player, n = part.split()
            self.hand.apply(Exchanged(player, int(n)))
        return self

    def swap(self, player: str) -> "Table":
        self.hand.apply(TrumpSixSwapped(player))
        return self

    def known(self, **hands: str) -> "Table":
        self.hand.apply(HandsKnown({p: tuple(cards(cs)) for p, cs in hands.items()}))
        return self

    def play(self, script: str) -> "Table":
        """``"Cla Ah, Doris Kh"`` or ``"Cla:Ah Doris:Kh"``."""
        for part in script.replace(",", " ").split():
            if ":" in part:
                player, c = part.split(":")
                self.hand.apply(CardPlayed(player, card(c)))
        return self

    # ---------------------------------------------------------------- reading
    def rules_flagged(self) -> list[tuple[int, str, str]]:
        return sorted((f.trick, f.player, f.rule) for f in self.hand.flags.values())

    def winners(self) -> list[str]:
        return [self.hand.seats[t.winner] for t in self.hand.tricks]

    def tricks_of(self, player: str) -> int:
        return self.hand.tricks_won[self.hand.index[player]]


def playing(seats: str = "Anna Beat Cla Doris", upcard: str = "7h", chratzer: str = "Beat",
            join: str = "metcho", along: set[str] | None = None, carried: int = 0,
            **house: object) -> Table:
    """A hand past the auction: dealer first seat, the named Chratzer; everyone else says
    ``join``, or ``metcho`` if in ``along`` and ``weg`` if not."""
    t = Table(seats, carried=carried, **house).up(upcard)
    names = seats.split()
    n = len(names)
    for k in range(1, n + 1):
        p = names[k % n]
        if p == chratzer:
            t.say(f"{p} chratze")
            break
        t.say(f"{p} weg")
    ci = names.index(chratzer)
    for k in range(1, n):
        q = names[(ci + k) % n]
        t.say(f"{q} {join if along is None else ('metcho' if q in along else 'weg')}")
    return t
