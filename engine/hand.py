"""One deal as a fold over its events: auction, exchange, play, flags and result.

``Hand.apply`` validates an event completely before it changes anything, so a rejected event
(:class:`IllegalEvent`) leaves the state exactly as it was. Flags never reject: a play that
breaks a rule is recorded and flagged, and the table decides (RULES.md §6).

Hidden hands and known hands share one mechanism: every play is checked against the cards the
referee *knows* the player held at that moment. In known-hands mode that is the whole hand, so
an illegal play is flagged at once; at a real table it is the cards proven later (hands are
fixed after the exchange) plus any upcard the player took, so the flag is raised by the play
that proves it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

from .cards import Card, card
from .events import (
    BidMade,
    CardPlayed,
    Event,
    Exchanged,
    FlagRuled,
    HandsKnown,
    HandStarted,
    TrumpSixSwapped,
    UpcardShown,
    seated_by_turn,
)
from .flags import Flag
from .reasons import IllegalEvent, refused
from .rules import HouseRules, broken_obligation, legal_cards, trick_winner_index

TRICKS_PER_HAND = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 7


@dataclass
class Play:
    player: int
    card: Card
    trick: int
    led_suit: int | None  # None when this card led the trick
    position: int


@dataclass
class Trick:
    number: int
    leader: int
    expected: list[int]  # who must play to it, from the leader on
    plays: list[Play] = field(default_factory=list)
    winner: int | None = None


class Hand:
    """State of one deal, computed by applying its events in order."""

    def __init__(self, start: HandStarted, rules: HouseRules | None = None, number: int = 1) -> None:
        self.rules = rules or HouseRules()
        self.number = number
        _check_start(start)
        self.start = start
        self.seats: tuple[str, ...] = start.seats
        self.n = n = len(start.seats)
        self.index = {name: i for i, name in enumerate(start.seats)}
        self.dealer = self.index[start.dealer]
        self.pot = start.carried + start.ante * n
        self.phase = "deal"
        self.position = 1
        self.events: list[Event] = [start]
        # auction
        self.upcards: list[Card] = []
        self.trump: int | None = None
        self.auction_order = [(self.dealer + 1 + k) % n for k in range(n)]
        self.bid_pos = 0
        self.bids: list[tuple[int, str]] = []
        self.chratzer: int | None = None
        self.blind: str | None = None
        self.join_order: list[int] = []
        self.join_pos = 0
        self.active = [False] * n
        # exchange
        self.stock = 36 - 4 * n
        self.held = [4] * n
        self.exchange_order: list[int] = []
        self.exchange_pos = 0
        self.exchanges: dict[int, tuple[int, int]] = {}
        self.swapped_by: int | None = None
        self.table_cards: set[Card] = set()  # face up on the table, out of play
        self.taken_by: dict[Card, int] = {}  # upcards taken into a hand: nobody else can hold them
        self.known_in_hand: list[set[Card]] = [set() for _ in range(n)]  # proven held at the lead
        self.known_hands: list[set[Card]] | None = None
        # play
        self.trick: Trick | None = None
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * n
        self.plays_by: list[list[Play]] = [[] for _ in range(n)]
        self.seen: dict[Card, Play] = {}
        self.stray: list[Play] = []
        self.flags: dict[str, Flag] = {}
        self.result: str | None = None  # played | susi | passed_out

    # ----------------------------------------------------------------- applying events
    def apply(self, event: Event) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise refused("not_in_hand", event=event.type)
        if self.phase == "done" and not isinstance(event, FlagRuled) and not self._late_play(event):
            raise refused("hand_over")
        event = seated_by_turn(event, self.seats, self.whose_turn)
        handler(self, event)
        self.events.append(event)
        self.position += 1

    def _seat(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            raise refused("not_seated", name=name, seats=", ".join(self.seats))
        return i

    def _upcard(self, ev: UpcardShown) -> None:
        if self.phase != "deal":
            raise refused("no_upcard_now", phase=self.phase)
        c = ev.card
        if c in self.upcards:
            raise refused("upcard_again", card=c.code)
        if self.stock < 1:
            raise refused("stock_empty")
        self.stock -= 1
        self.upcards.append(c)
        self.trump = c.suit
        if self.blind == "double_blind":
            self.taken_by[c] = self.dealer  # may be discarded: owned, not proven held
            self._open_joining()
            return
        self.table_cards.add(c)
        self.phase = "auction"
        self.bid_pos = self.n - 1 if self.banner_round() else 0

    def banner_round(self) -> bool:
        """Bannerrunde house rule with a 10 as the current upcard (RULES.md §7)."""
        return self.rules.bannerrunde and bool(self.upcards) and self.upcards[-1].code[0] == "T"

    def _bid(self, ev: BidMade) -> None:
        p = self._seat(ev.player)
        if ev.bid == "double_blind":
            self._double_blind(p)
        elif ev.bid == "blind":
            self._single_blind(p)
        elif self.phase == "auction":
            self._auction_bid(p, ev.bid)
        elif self.phase == "joining":
            self._joining_bid(p, ev.bid)
        else:
            raise refused("no_bids_now", phase=self.phase)
        self.bids.append((p, ev.bid))

    def _double_blind(self, p: int) -> None:
        if not self.rules.double_blind_allowed:
            raise refused("double_blind_off")
        if self.phase != "deal" or self.upcards:
            raise refused("double_blind_late")
        if p != self.dealer:
            raise refused("double_blind_dealer")
        self.blind = "double_blind"
        self.chratzer = p
        self.held[p] = 6
        self.stock -= 1

    def _single_blind(self, p: int) -> None:
        if not self.rules.blind_allowed:
            raise refused("blind_off")
        if self.phase != "auction" or len(self.upcards) != 1 or self.bids:
            raise refused("blind_when")
        if p != self.dealer:
            raise refused("blind_dealer")
        upcard = self.upcards[0]
        self.blind = "blind"
        self.chratzer = p
        self.held[p] = 5
        self.table_cards.discard(upcard)
        self.taken_by[upcard] = p  # may be discarded: owned, not proven held
        self._open_joining()

    def _auction_bid(self, p: int, bid: str) -> None:
        expected = self.auction_order[self.bid_pos]
        if self.banner_round() and (p != self.dealer or bid != "chratze"):
            raise refused("bannerrunde_dealer", player=self.seats[self.dealer])
        if p != expected:
            raise refused("bid_turn", player=self.seats[expected])
        if bid == "chratze":
            self.chratzer = p
            self._open_joining()
        elif bid == "weg":
            self.bid_pos += 1
            if self.bid_pos == self.n:
                self._auction_failed()
        else:
            raise refused("chratze_or_weg")

    def _auction_failed(self) -> None:
        if self.rules.no_bid == "new_upcard" and len(self.upcards) < self.rules.max_upcards and self.stock > 0:
            self.phase = "deal"
        else:
            self.phase = "done"
            self.result = "passed_out"

    def _open_joining(self) -> None:
        c = self.chratzer
        assert c is not None
        self.active[c] = True
        self.join_order = [(c + k) % self.n for k in range(1, self.n)]
        self.join_pos = 0
        self.phase = "joining"

    def _joining_bid(self, p: int, bid: str) -> None:
        if bid == "chratze":
            raise refused("one_chratzer", player=self.seats[self.chratzer])
        expected = self.join_order[self.join_pos]
        if p != expected:
            raise refused("join_turn", player=self.seats[expected])
        forced = self._forced_to_come_along()
        if bid == "weg" and forced:
            raise refused(forced)
        self.active[p] = bid == "metcho"
        self.join_pos += 1
        if self.join_pos == len(self.join_order):
            self._close_joining()

    def _forced_to_come_along(self) -> str | None:
        """The reason's code why the player asked now may not say weg (Bannerrunde, Letzter), or None."""
        if self.banner_round():
            return "bannerrunde_all"  # reason
        last = self.join_pos == len(self.join_order) - 1
        if last and self.rules.letzter and not any(self.active[q] for q in self.join_order):
            return "letzter"  # reason
        return None

    def must_come_along(self) -> bool:
        """In the joining round: the player asked now must say metcho."""
        return self.phase == "joining" and self._forced_to_come_along() is not None

    def _close_joining(self) -> None:
        c = self.chratzer
        others = [q for q in self.join_order if self.active[q]]
        if not others:
            self.phase = "done"
            self.result = "susi"
            return
        self.exchange_order = [c] + others
        self.exchange_pos = 0
        self.phase = "exchange"

    def _exchange(self, ev: Exchanged) -> None:
        p = self._seat(ev.player)
        if self.phase != "exchange" or self.exchange_pos >= len(self.exchange_order):
            raise refused("exchange_when")
        expected = self.exchange_order[self.exchange_pos]
        if p != expected:
            raise refused("exchange_turn", player=self.seats[expected])
        held = self.held[p]
        if not 0 <= ev.count <= held:
            raise refused("exchange_count", player=ev.player, held=held, count=ev.count)
        want = 5 if ev.count == held and ev.count > 0 else max(0, 4 - (held - ev.count))
        got = min(want, self.stock)
        self.stock -= got
        self.held[p] = min(4, held - ev.count + got)
        self.exchanges[p] = (ev.count, got)
        if ev.count:
            self.known_in_hand[p].clear()  # a taken upcard may be among the cards laid down
        self.exchange_pos += 1

    def _swap(self, ev: TrumpSixSwapped) -> None:
        p = self._seat(ev.player)
        if self.phase not in ("exchange", "play") or self.trick is not None:
            raise refused("swap_when")
        if self.blind:
            raise refused("swap_blind")
        if not self.active[p]:
            raise refused("not_playing", player=ev.player)
        if self.swapped_by is not None:
            raise refused("swap_again")
        upcard = self.upcards[-1]
        six = card("6" + upcard.suit_letter)
        if upcard is six:
            raise refused("swap_six_up")
        if self.known_hands is not None and six not in self.known_hands[p]:
            raise refused("swap_no_six", player=ev.player)
        self.swapped_by = p
        self.table_cards.discard(upcard)
        self.table_cards.add(six)
        self.taken_by[upcard] = p
        self.known_in_hand[p].add(upcard)
        if self.known_hands is not None:
            self.known_hands[p].discard(six)
            self.known_hands[p].add(upcard)

    def _hands_known(self, ev: HandsKnown) -> None:
        if self.phase not in ("exchange", "play") or self.trick is not None:
            raise refused("hands_known_when")
        hands = [set() for _ in range(self.n)]
        names = {self._seat(name) for name in ev.hands}
        missing = [self.seats[q] for q in range(self.n) if self.active[q] and q not in names]
        if missing:
            raise refused("hands_missing", players=", ".join(missing))
        taken: set[Card] = set()
        for name, cs in ev.hands.items():
            p = self.index[name]
            self._check_known_hand(p, cs, taken)
            hands[p] = set(cs)
            taken.update(cs)
        self.known_hands = hands

    def _check_known_hand(self, p: int, cs: tuple[Card, ...], taken: set[Card]) -> None:
        name = self.seats[p]
        if not self.active[p]:
            raise refused("not_playing", player=name)
        if len(cs) != self.held[p] or len(set(cs)) != len(cs):
            raise refused("hand_size", player=name, held=self.held[p], count=len(cs))
        clash = [c for c in cs if c in taken or c in self.table_cards
                 or (c in self.upcards and self.taken_by.get(c) != p)]
        if clash:
            raise refused("hand_clash", player=name, card=clash[0].code)
        lacking = [c for c in self.known_in_hand[p] if c not in cs]
        if lacking:
            raise refused("hand_lacks", player=name, card=lacking[0].code)

    def _ruling(self, ev: FlagRuled) -> None:
        flag = self.flags.get(ev.flag)
        if flag is None:
            raise refused("no_flag", flag=ev.flag)
        flag.status = "upheld" if ev.upheld else "dismissed"

    # ----------------------------------------------------------------- play
    def _late_play(self, event: Event) -> bool:
        """A card played after the hand's last trick: flagged like any fifth card (RULES.md 6), never refused."""
        return isinstance(event, CardPlayed) and self.result == "played"

    def _play(self, ev: CardPlayed) -> None:
        p = self._seat(ev.player)
        if self.phase == "done":
            play = Play(p, ev.card, len(self.tricks), None, self.position)
            self._flag_card_identity(play)
            self._flag(play, "extra_card", f"{ev.player} played {ev.card} after the last trick")
            self.stray.append(play)
            self.seen.setdefault(ev.card, play)
            return
        if self.phase not in ("exchange", "play"):
            raise refused("no_play_now", phase=self.phase)
        self.phase = "play"  # a first card closes an exchange nobody finished recording
        if self.trick is None:
            self.trick = self._new_trick(1, self.chratzer)
        trick = self.trick
        c = ev.card
        led = trick.plays[0].card.suit if trick.plays else None
        play = Play(p, c, trick.number, led, self.position)
        self._flag_card_identity(play)
        if not self.active[p]:
            self._flag(play, "inactive_player", f"{ev.player} said weg")
            self.stray.append(play)
            self.seen.setdefault(c, play)
            return
        if any(q.player == p for q in trick.plays) or len(self.plays_by[p]) >= self.held[p]:
            self._flag(play, "extra_card", f"{ev.player} has already played {len(self.plays_by[p])} "
                       f"of {self.held[p]} cards, one in trick {trick.number}")
            self.stray.append(play)
            self.seen.setdefault(c, play)
            return
        turn = self.whose_turn()
        if turn != p:
            self._flag(play, "out_of_turn", f"it was {self.seats[turn]}'s turn")
        self._check_obligations(play)
        self.seen.setdefault(c, play)
        self.known_in_hand[p].discard(c)
        if self.known_hands is not None:
            self.known_hands[p].discard(c)
        self.plays_by[p].append(play)
        trick.plays.append(play)
        if len(trick.plays) == len(trick.expected):
            self._close_trick(trick)

    def _flag_card_identity(self, play: Play) -> None:
        c, p = play.card, play.player
        first = self.seen.get(c)
        if first is not None:
            self._flag(play, "card_seen_twice",
                       f"{c} was played by {self.seats[first.player]} in trick {first.trick}")
        elif c in self.table_cards or (c in self.upcards and c not in self.taken_by):
            self._flag(play, "upcard_played", f"{c} lies face up on the table")
        else:
            owner = self.taken_by.get(c, p)
            if owner != p:
                self._flag(play, "card_known_elsewhere", f"{self.seats[owner]} took {c} from the table")
            elif self.known_hands is not None and c not in self.known_hands[p]:
                self._flag(play, "card_not_in_hand",
                           f"{self.seats[p]} holds {' '.join(sorted(x.code for x in self.known_hands[p]))}")

    def _check_obligations(self, play: Play) -> None:
        """Check this play with what is known now, and earlier plays with this new proof."""
        p, trump = play.player, self.trump
        if play.led_suit is not None:
            held = self.known_hands[p] if self.known_hands is not None else self.known_in_hand[p]
            broken = broken_obligation(play.card, held, play.led_suit, trump)
            if broken:
                rule, proof = broken
                how = "held" if self.known_hands is not None else "took it from the table"
                self._flag(play, rule, f"{self.seats[p]} {how}: {proof}", rule_may_upgrade=True)
        for earlier in self.plays_by[p]:
            if earlier.led_suit is None:
                continue
            broken = broken_obligation(earlier.card, (play.card,), earlier.led_suit, trump)
            if broken:
                self._flag(earlier, broken[0],
                           f"{self.seats[p]} played {play.card} later, in trick {play.trick}",
                           rule_may_upgrade=True, raised_at=play.position)

    def _flag(self, play: Play, rule: str, evidence: str, rule_may_upgrade: bool = False,
              raised_at: int | None = None) -> None:
        kind = "obligation" if rule_may_upgrade else rule
        fid = f"h{self.number}t{play.trick}-{self.seats[play.player]}-{kind}-{play.position}"
        flag = self.flags.get(fid)
        if flag is None:
            self.flags[fid] = Flag(fid, play.trick, self.seats[play.player], rule, play.card.code,
                                   [evidence], raised_at if raised_at is not None else play.position)
            return
        if rule == "revoke" and flag.rule == "failed_trump":
            flag.rule = "revoke"
        if evidence not in flag.evidence:
            flag.evidence.append(evidence)

    def _new_trick(self, number: int, leader: int | None) -> Trick:
        """A trick led by ``leader`` (or the next seat that still holds a card), expecting every
        active player who still holds one."""
        assert leader is not None
        n, active, held, plays_by = self.n, self.active, self.held, self.plays_by
        order = [(leader + k) % n for k in range(n)]
        expected = [q for q in order if active[q] and len(plays_by[q]) < held[q]]
        return Trick(number, expected[0] if expected else leader, expected)

    def _close_trick(self, trick: Trick) -> None:
        i = trick_winner_index([x.card for x in trick.plays], self.trump)
        trick.winner = w = trick.plays[i].player
        self.tricks_won[w] += 1
        self.tricks.append(trick)
        if trick.number == TRICKS_PER_HAND or not any(
                self.active[q] and len(self.plays_by[q]) < self.held[q] for q in range(self.n)):
            self.trick = None
            self.phase = "done"
            self.result = "played"
        else:
            self.trick = self._new_trick(trick.number + 1, w)

    # ----------------------------------------------------------------- queries
    def held_up(self) -> Play | None:
        """The play that holds the hand up: a card the player to play now laid before the trick in front
        of it was complete (set aside, flagged extra_card), so the record waits for a card they no longer
        hold. Taking it as made now (``PlayMoved``) lets the hand go on."""
        turn = self.whose_turn() if self.phase in ("exchange", "play") else None
        if turn is None:
            return None
        early = [s for s in self.stray if s.player == turn and s.trick < (self.trick.number if self.trick else 1)
                 and any(f.rule == "extra_card" and f.raised_at == s.position for f in self.flags.values())]
        return early[0] if early else None

    def whose_turn(self) -> int | None:
        """Seat index expected to act next, whatever the phase; None when nobody is."""
        if self.phase == "auction":
            return self.auction_order[self.bid_pos]
        if self.phase == "joining":
            return self.join_order[self.join_pos]
        if self.phase == "exchange" and self.exchange_pos < len(self.exchange_order):
            return self.exchange_order[self.exchange_pos]
        if self.phase in ("exchange", "play"):
            trick = self.trick or self._new_trick(1, self.chratzer)
            played = [x.player for x in trick.plays]
            for q in trick.expected:
                if q not in played:
                    return q
            return None
        return None

    def refusal(self, event: Event) -> str | None:
        """Why ``event`` cannot happen now, or None if it can (tried on a copy: state is unchanged)."""
        try:
            copy.deepcopy(self).apply(event)
        except IllegalEvent as exc:
            return str(exc)
        return None

    def legal_moves(self, player: str) -> list[Card]:
        """Known-hands mode: the cards ``player`` may play now."""
        if self.known_hands is None:
            raise refused("need_known_hands")
        p = self._seat(player)
        led = self.trick.plays[0].card.suit if self.trick and self.trick.plays else None
        return sorted(legal_cards(self.known_hands[p], led, self.trump), key=lambda c: c.index)

    def target(self, p: int) -> int:
        return 2 if p == self.chratzer else 1

    def made_contract(self, p: int) -> bool:
        return self.tricks_won[p] >= self.target(p)

    @property
    def susi(self) -> str | None:
        """The last player asked when nobody came along (a label, RULES.md §5)."""
        return self.seats[self.join_order[-1]] if self.result == "susi" and self.join_order else None


def _check_start(start: HandStarted) -> None:
    seats = start.seats
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise refused("player_count", low=MIN_PLAYERS, high=MAX_PLAYERS, count=len(seats))
    if len(set(seats)) != len(seats):
        raise refused("seat_once")
    if start.dealer not in seats:
        raise refused("dealer_not_seated", dealer=start.dealer)
    if start.ante < 0 or start.carried < 0:
        raise refused("negative_money")


_HANDLERS: dict[type, Callable[[Hand, Event], None]] = {
    UpcardShown: Hand._upcard,
    BidMade: Hand._bid,
    Exchanged: Hand._exchange,
    TrumpSixSwapped: Hand._swap,
    HandsKnown: Hand._hands_known,
    CardPlayed: Hand._play,
    FlagRuled: Hand._ruling,
}
