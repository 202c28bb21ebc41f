"""Many random hands at once, shuffle to settlement, in NumPy: the engine's fast path.

The same deals, bids, exchanges, swaps and random legal play as :func:`engine.simulate.simulate_hand`,
and the same referee's results (trick winners, tricks won, payouts, penalties), computed for a batch
of hands with one array operation per step of a hand instead of one Python call per event. It is
for thinking ahead (bots, the advisor, odds), never for the record: the readable engine
(:class:`engine.hand.Hand`) stays the reference, and ``tests/test_fast.py`` replays fast hands through
it, event for event (:meth:`Batch.events`), and compares every result.

Cards are ints ``suit * 9 + rank`` (:attr:`engine.cards.Card.index`); -1 is no card. The dealer is
seat 0, as in ``simulate_hand``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import bots
from .cards import DECK
from .events import BidMade, CardPlayed, Event, Exchanged, HandsKnown, HandStarted, TrumpSixSwapped, UpcardShown
from .hand import MAX_PLAYERS, MIN_PLAYERS, TRICKS_PER_HAND
from .rules import HouseRules, round_up
from .simulate import NAMES

SLOTS = 6  # most cards a hand holds: a double blind dealer's 4, one from the stock and the upcard
PLAYED, SUSI, PASSED_OUT = 0, 1, 2
RESULTS = ("played", "susi", "passed_out")


@dataclass
class Batch:
    """``B`` hands of ``n`` players: every random choice made, and what the referee makes of them."""

    n: int
    rules: HouseRules
    ante: int  # each player's ante this hand
    result: np.ndarray  # (B,) PLAYED | SUSI | PASSED_OUT
    chratzer: np.ndarray  # (B,) seat, -1 when nobody chratzed
    blind: np.ndarray  # (B,) 0 none, 1 blind, 2 double blind
    upcards: np.ndarray  # (B, max_upcards) cards turned, -1 after the last
    bids: np.ndarray  # (B, max_upcards, n) auction round r, k-th seat asked: 0 weg, 1 chratze, -1 not asked
    joined: np.ndarray  # (B, n) joining round, k-th seat asked after the Chratzer: 1 metcho, 0 weg, -1 not asked
    active: np.ndarray  # (B, n) bool
    order: np.ndarray  # (B, n) exchange order (the Chratzer, then who came along), -1 after the last
    laid: np.ndarray  # (B, n) cards laid down by the k-th of the exchange order
    swapped: np.ndarray  # (B,) seat that swapped the trump 6, -1 none
    dealt: np.ndarray  # (B, n, SLOTS) each seat's cards when play began, -1 padded
    plays: np.ndarray  # (B, 4, n, 2) (seat, card) of each trick's plays in order, -1 padded
    winners: np.ndarray  # (B, 4) seat winning each trick, -1 for a trick not played
    tricks_won: np.ndarray  # (B, n)
    pot: np.ndarray  # (B,) the pot the hand is played for
    payouts: np.ndarray  # (B, n) Rappen paid out of the pot
    penalties: np.ndarray  # (B, n) Rappen paid into the pot

    def __len__(self) -> int:
        return len(self.result)

    def events(self, b: int, seats: tuple[str, ...] | None = None) -> list[Event]:
        """Hand ``b`` as the events a table would record, for the readable engine to referee (``seats``:
        the players' names in play order, the dealer first)."""
        seats, rules, n = seats or NAMES[:self.n], self.rules, self.n
        out: list[Event] = [HandStarted(seats, seats[0], self.ante, int(self.pot[b]) - self.ante * n)]
        ups = [DECK[c] for c in self.upcards[b] if c >= 0]
        if self.blind[b] == 2:
            out.append(BidMade(seats[0], "double_blind"))
        for r, up in enumerate(ups):
            out.append(UpcardShown(up))
            if r == 0 and self.blind[b] == 1:
                out.append(BidMade(seats[0], "blind"))
            for k, bid in enumerate(self.bids[b, r]):
                if bid >= 0:
                    out.append(BidMade(seats[_asked(rules, up, n, k)], "chratze" if bid else "weg"))
        c = int(self.chratzer[b])
        for k, said in enumerate(self.joined[b]):
            if said >= 0:
                out.append(BidMade(seats[(c + 1 + k) % n], "metcho" if said else "weg"))
        for k, p in enumerate(self.order[b]):
            if p >= 0:
                out.append(Exchanged(seats[p], int(self.laid[b, k])))
        if self.swapped[b] >= 0:
            out.append(TrumpSixSwapped(seats[self.swapped[b]]))
        if self.result[b] == PLAYED:
            out.append(HandsKnown({seats[p]: tuple(DECK[x] for x in self.dealt[b, p] if x >= 0)
                                   for p in self.order[b] if p >= 0}))
            for seat, card in self.plays[b].reshape(-1, 2):
                if seat >= 0:
                    out.append(CardPlayed(seats[seat], DECK[card]))
        return out


def _asked(rules: HouseRules, upcard, n: int, k: int) -> int:
    """The seat asked k-th in an auction round: from the dealer's left; the dealer alone in a Bannerrunde."""
    if rules.bannerrunde and upcard.code[0] == "T":
        return 0
    return (1 + k) % n


@dataclass(frozen=True)
class Seat:
    """One seat whose cards and choices are given (the advisor's player): its four cards, the first
    upcard, what it says in the auction (chratze or weg) and when asked to come along (metcho or weg),
    and the cards it lays down; it plays its cards as the heuristic bot does."""

    seat: int
    cards: tuple[int, ...]
    upcard: int
    bid: str = "weg"
    join: str = "weg"
    lay: tuple[int, ...] = ()


@dataclass
class Decided:
    """One seat's choices made beforehand, hand by hand (the search bot's, or the advisor's player's):
    whether it chratzes when asked on the first upcard, whether it comes along while that upcard is
    trump, and the cards it lays down. Later upcards and its play are the heuristic bot's."""

    seat: int
    chratze: np.ndarray  # (B,) bool
    metcho: np.ndarray  # (B,) bool
    lay: np.ndarray  # (B, 36) bool, by card


def deal(rng: np.random.Generator, hands: int) -> np.ndarray:
    """Packs in dealing order (seat by seat, four each, then the stock, drawn from its end: the last card
    is the first upcard), one per hand."""
    return rng.permuted(np.tile(np.arange(36, dtype=np.int16), (hands, 1)), axis=1)


def simulate_batch(rng: np.random.Generator, hands: int, players: int = 4, rules: HouseRules | None = None,
                   chratze_rate: float = 0.35, metcho_rate: float = 0.6, blind_rate: float = 0.05,
                   swap_rate: float = 0.8, bots: str | None = None, given: Seat | None = None,
                   carried: int = 0, deck: np.ndarray | None = None, decided: Decided | None = None,
                   ante: int | None = None) -> Batch:
    """``hands`` deals of ``players`` from shuffle to settlement (the rates as in ``simulate_hand``).
    ``bots``: one letter per seat, ``r`` random (the rates) or ``h`` the heuristic bot (:mod:`engine.bots`);
    default all random. ``given``: one seat's cards, upcard and choices fixed, the rest dealt at random
    (no blind is played then: the upcard is the first card turned). ``carried``: Rappen already in the pot.
    ``deck`` (from :func:`deal`) and ``decided``: the packs, and one seat's choices made for them.
    ``ante``: each player's ante this hand, where the session says other than the rules' (an ante only
    into an empty pot)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Chratze is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    bots = bots or "r" * players
    if len(bots) != players or set(bots) - set("rh"):
        raise ValueError(f"bots: one of r (random) or h (heuristic) per seat, {players} in all, not {bots!r}")
    if given is not None:
        deck, decided = _given(rng, hands, given)
    table = _Table(rng, hands, players, rules or HouseRules(), np.array([b == "h" for b in bots]),
                   deal(rng, hands) if deck is None else deck, decided)
    table.carried, table.ante = carried, (rules or HouseRules()).ante if ante is None else ante
    return table.run(chratze_rate, metcho_rate, 0.0 if decided is not None else blind_rate, swap_rate)


def _given(rng: np.random.Generator, B: int, given: Seat) -> tuple[np.ndarray, Decided]:
    """Packs with the given seat's four cards and the first upcard in place, the rest shuffled."""
    fixed = (*given.cards, given.upcard)
    if len(given.cards) != 4 or len(set(fixed)) != 5 or not all(0 <= c < 36 for c in fixed):
        raise ValueError("a given seat holds four different cards, and the upcard is a fifth")
    rest = np.array([c for c in range(36) if c not in fixed], np.int16)
    places = [i for i in range(35) if not 4 * given.seat <= i < 4 * given.seat + 4]
    deck = np.empty((B, 36), np.int16)
    deck[:, places] = rng.permuted(np.tile(rest, (B, 1)), axis=1)
    deck[:, 4 * given.seat:4 * given.seat + 4] = given.cards
    deck[:, 35] = given.upcard  # the first card turned
    lay = np.zeros((B, 36), bool)
    lay[:, list(given.lay)] = True
    return deck, Decided(given.seat, np.full(B, given.bid == "chratze"), np.full(B, given.join == "metcho"), lay)


class _Table:
    """The state of every hand of the batch; each method is one step of a hand, for all hands at once."""

    def __init__(self, rng: np.random.Generator, B: int, n: int, rules: HouseRules, smart: np.ndarray,
                 deck: np.ndarray, decided: Decided | None = None) -> None:
        self.rng, self.B, self.n, self.rules, self.smart, self.decided = rng, B, n, rules, smart.copy(), decided
        if decided is not None:
            self.smart[decided.seat] = True  # it plays as the bot does
        self.carried, self.ante = 0, rules.ante
        self.rows = np.arange(B)
        self.cards = np.full((B, n, SLOTS), -1, np.int16)
        self.cards[:, :, :4] = deck[:, :4 * n].reshape(B, n, 4)
        self.stock = deck[:, 4 * n:]  # drawn from the end
        self.left = np.full(B, 36 - 4 * n)  # cards in the stock
        self.held = np.full((B, n), 4)
        U = rules.max_upcards
        self.upcards = np.full((B, U), -1, np.int16)
        self.turned = np.zeros(B, int)
        self.bids = np.full((B, U, n), -1, np.int8)
        self.joined = np.full((B, n), -1, np.int8)
        self.chratzer = np.full(B, -1)
        self.blind = np.zeros(B, np.int8)
        self.result = np.full(B, -1)
        self.active = np.zeros((B, n), bool)
        self.order = np.full((B, n), -1)
        self.laid = np.zeros((B, n), int)
        self.swapped = np.full(B, -1)

    # ------------------------------------------------------------------ helpers
    def _pop(self, mask: np.ndarray) -> np.ndarray:
        """One card from the stock of each hand in ``mask`` (-1 elsewhere)."""
        out = np.full(self.B, -1, np.int16)
        idx = np.flatnonzero(mask)
        self.left[idx] -= 1
        out[idx] = self.stock[idx, self.left[idx]]
        return out

    def _give(self, mask: np.ndarray, seat: np.ndarray | int, card: np.ndarray) -> None:
        """Put ``card`` into the first free slot of ``seat``'s hand, for the hands in ``mask``."""
        idx = np.flatnonzero(mask)
        seat = np.broadcast_to(seat, (self.B,))[idx]
        free = np.argmax(self.cards[idx, seat] < 0, axis=1)
        self.cards[idx, seat, free] = card[idx]

    def _turn(self, mask: np.ndarray) -> None:
        up = self._pop(mask)
        idx = np.flatnonzero(mask)
        self.upcards[idx, self.turned[idx]] = up[idx]
        self.turned[idx] += 1
        self.trump_card = np.where(mask, up, getattr(self, "trump_card", up))
        double = mask & (self.blind == 2)
        self._give(double, 0, up)

    # ------------------------------------------------------------------ a hand, step by step
    def run(self, chratze_rate: float, metcho_rate: float, blind_rate: float, swap_rate: float) -> Batch:
        r, rng = self.rules, self.rng
        if r.double_blind_allowed and not self.smart[0]:
            double = rng.random(self.B) < blind_rate / 3
            self.blind[double] = 2
            self.chratzer[double] = 0
            self.held[double, 0] = 6
            self._give(double, 0, self._pop(double))
        self._turn(np.ones(self.B, bool))
        auction = self.blind == 0
        if r.blind_allowed and not self.smart[0]:
            single = auction & (rng.random(self.B) < blind_rate)
            self.blind[single] = 1
            self.chratzer[single] = 0
            self.held[single, 0] = 5
            self._give(single, 0, self.trump_card)
            auction &= ~single
        self._auction(auction, chratze_rate)
        joining = self.chratzer >= 0
        self._join(joining, metcho_rate)
        playing = joining & (self.result < 0)
        self._exchange(playing)
        self._swap(playing, swap_rate)
        dealt = self.cards.copy()
        self.result[playing] = PLAYED
        plays, winners, won = self._play(playing)
        pot = np.full(self.B, self.carried + self.ante * self.n)
        payouts, penalties = self._settle(pot, won)
        return Batch(self.n, r, self.ante, self.result, self.chratzer, self.blind, self.upcards, self.bids, self.joined,
                     self.active, self.order, self.laid, self.swapped, dealt, plays, winners, won, pot,
                     payouts, penalties)

    def _auction(self, asking: np.ndarray, rate: float) -> None:
        r, n = self.rules, self.n
        for rnd in range(r.max_upcards):
            if rnd:
                self._turn(asking)
            banner = asking & (self.trump_card % 9 == 4) if r.bannerrunde else np.zeros(self.B, bool)
            self.bids[banner, rnd, 0] = 1
            self.chratzer[banner] = 0
            open_ = asking & ~banner
            for k in range(n):
                p = (1 + k) % n
                if self.decided is not None and p == self.decided.seat and rnd == 0:
                    says = open_ & self.decided.chratze
                elif self.smart[p]:
                    says = open_ & bots.wants_to_chratze(self.cards[:, p], self.trump_card // 9)
                else:
                    says = open_ & (self.rng.random(self.B) < rate)
                self.bids[open_, rnd, k] = 0
                self.bids[says, rnd, k] = 1
                self.chratzer[says] = (1 + k) % n
                open_ &= ~says
            asking = open_
            more = r.no_bid == "new_upcard" and rnd + 1 < r.max_upcards
            asking = asking & (self.left > 0) if more else np.zeros(self.B, bool)
            self.result[open_ & ~asking] = PASSED_OUT
            if not asking.any():
                break

    def _join(self, joining: np.ndarray, rate: float) -> None:
        r, n, rows = self.rules, self.n, self.rows
        c = self.chratzer
        self.active[joining, c[joining]] = True
        banner = joining & (self.trump_card % 9 == 4) if r.bannerrunde else np.zeros(self.B, bool)
        anyone = np.zeros(self.B, bool)
        for k in range(n - 1):
            p = (c + 1 + k) % n
            forced = banner | (r.letzter & (k == n - 2) & ~anyone)
            ps = np.where(joining, p, 0)
            wants = np.where(self.smart[ps], bots.comes_along(self.cards[self.rows, ps], self.trump_card // 9),
                             self.rng.random(self.B) < rate)
            if self.decided is not None:
                wants = np.where((ps == self.decided.seat) & (self.turned == 1), self.decided.metcho, wants)
            says = joining & (forced | wants)
            self.joined[joining, k] = says[joining]
            self.active[rows[says], p[says]] = True
            anyone |= says
        self.result[joining & ~anyone] = SUSI

    def _exchange(self, playing: np.ndarray) -> None:
        n, rows = self.n, self.rows
        c = self.chratzer
        # the exchange order: the Chratzer, then those who came along in joining order
        slot = np.zeros(self.B, int)
        for k in range(n):
            p = (c + k) % n
            on = playing & self.active[rows, np.where(c >= 0, p, 0)]
            self.order[rows[on], slot[on]] = p[on]
            slot[on] += 1
        for k in range(n):
            p = self.order[:, k]
            on = playing & (p >= 0)
            if not on.any():
                continue
            ps = np.where(on, p, 0)
            held = self.held[rows, ps]
            hand = self.cards[rows, ps]  # (B, SLOTS)
            smart = self.smart[ps]
            lay = bots.cards_to_lay(hand, self.trump_card // 9) & smart[:, None]
            if self.decided is not None:
                mine = ((ps == self.decided.seat) & (self.turned == 1))[:, None]
                lay = np.where(mine, self.decided.lay[rows[:, None], np.maximum(hand, 0)] & (hand >= 0), lay)
            count = np.where(smart, lay.sum(axis=1), (self.rng.random(self.B) * (held + 1)).astype(int))
            count = np.where(on, count, 0)
            want = np.where((count == held) & (count > 0), 5, np.maximum(0, 4 - (held - count)))
            got = np.where(on, np.minimum(want, self.left), 0)
            new_held = np.minimum(4, held - count + got)
            self.laid[on, k] = count[on]
            # keep a random held - count of the cards (the bot: those it does not lay down), add those drawn,
            # keep a random new_held of them
            keys = np.where(hand >= 0, self.rng.random(hand.shape), 2.0) + np.where(lay, 1.0, 0.0)
            kept = np.take_along_axis(hand, np.argsort(keys, axis=1), axis=1)
            kept[np.arange(SLOTS)[None, :] >= (held - count)[:, None]] = -1
            drawn = np.full((self.B, 5), -1, np.int16)
            for j in range(5):
                take = on & (j < got)
                drawn[:, j] = self._pop(take)
            pool = np.concatenate([kept, drawn], axis=1)
            keys = np.where(pool >= 0, self.rng.random(pool.shape), 2.0)
            pool = np.take_along_axis(pool, np.argsort(keys, axis=1), axis=1)[:, :SLOTS]
            pool[np.arange(SLOTS)[None, :] >= new_held[:, None]] = -1
            self.cards[rows[on], ps[on]] = pool[on]
            self.held[rows[on], ps[on]] = new_held[on]

    def _swap(self, playing: np.ndarray, rate: float) -> None:
        rows, up = self.rows, self.trump_card
        six = (up // 9) * 9  # the trump 6
        may = playing & (self.blind == 0) & (up != six)
        for k in range(self.n):
            p = self.order[:, k]
            ps = np.where(p >= 0, p, 0)
            where = self.cards[rows, ps] == six[:, None]
            has = may & (p >= 0) & where.any(axis=1)
            does = has & (self.smart[ps] | (self.rng.random(self.B) < rate))
            slot = np.argmax(where, axis=1)
            self.cards[rows[does], ps[does], slot[does]] = up[does]
            self.swapped[does] = p[does]
            may &= ~does

    def _play(self, playing: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n, rows = self.n, self.rows
        trump = self.trump_card // 9
        plays = np.full((self.B, TRICKS_PER_HAND, n, 2), -1, np.int16)
        winners = np.full((self.B, TRICKS_PER_HAND), -1)
        won = np.zeros((self.B, n), int)
        leader = np.where(playing, self.chratzer, 0)
        going = playing.copy()
        cards = self.cards
        for t in range(TRICKS_PER_HAND):
            left = self.held - t  # cards each seat still holds (everyone in play plays every trick)
            led = np.full(self.B, -1)
            best_card = np.full(self.B, -1)
            best_seat = np.full(self.B, -1)
            slot = np.zeros(self.B, int)
            for k in range(n):
                p_all = (leader + k) % n
                i = np.flatnonzero(going & self.active[rows, p_all] & (left[rows, p_all] > 0))
                if not len(i):
                    continue
                p, lead_suit, best = p_all[i], led[i], best_card[i]  # only the hands where this seat plays
                hand = cards[i, p]  # (m, SLOTS)
                has = hand >= 0
                suit = np.where(has, hand // 9, -9)
                tr = trump[i]
                follow = has & (suit == lead_suit[:, None])
                trumps = has & (suit == tr[:, None])
                legal = np.where(follow.any(axis=1)[:, None], follow,
                                 np.where(((lead_suit != tr) & (lead_suit >= 0) & trumps.any(axis=1))[:, None], trumps, has))
                smart = self.smart[p]
                if smart.all():  # bots only: no random card to draw
                    pick = bots.choose(hand, legal, tr, lead_suit, best)
                else:
                    pick = np.argmax(np.where(legal, self.rng.random(hand.shape), -1.0), axis=1)
                    if smart.any():
                        pick = np.where(smart, bots.choose(hand, legal, tr, lead_suit, best), pick)
                card = hand[np.arange(len(i)), pick]
                cards[i, p, pick] = -1
                plays[i, t, slot[i], 0] = p
                plays[i, t, slot[i], 1] = card
                slot[i] += 1
                first = lead_suit < 0
                better = ~first & (((card // 9 == best // 9) & (card > best)) | ((card // 9 == tr) & (best // 9 != tr)))
                led[i[first]] = card[first] // 9
                take = first | better
                best_card[i[take]], best_seat[i[take]] = card[take], p[take]
            done = going & (best_seat >= 0)
            winners[done, t] = best_seat[done]
            won[rows[done], best_seat[done]] += 1
            leader = np.where(done, best_seat, leader)
            still = (self.active & (self.held - (t + 1) > 0)).any(axis=1)
            going = done & still
        return plays, winners, won

    def _settle(self, pot: np.ndarray, won: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """RULES.md §4-5, as :func:`engine.settlement.settle`, in whole Rappen."""
        n, rows, r = self.n, self.rows, self.rules
        payouts = np.zeros((self.B, n), int)
        penalties = np.zeros((self.B, n), int)
        susi = self.result == SUSI
        payouts[rows[susi], self.chratzer[susi]] = pot[susi]
        played = self.result == PLAYED
        c = np.where(played, self.chratzer, 0)
        target = np.ones((self.B, n), int)
        target[rows, c] = 2
        made = self.active & (won >= target) & played[:, None]
        failed = self.active & ~made & played[:, None]
        penalties[failed] = np.broadcast_to(pot[:, None], (self.B, n))[failed]
        c_failed = played & failed[rows, c]
        penalties[rows[c_failed], c[c_failed]] = 2 * pot[c_failed]
        winners = made.sum(axis=1)
        c_made = made[rows, c]
        # the Chratzer failed: the winners share equally, an indivisible remainder stays in the pot
        share = np.where(winners > 0, pot // np.maximum(winners, 1), 0)
        no_c = played & ~c_made & (winners > 0)
        payouts[no_c] = np.where(made[no_c], share[no_c, None], 0)
        # the Chratzer alone
        alone = played & c_made & (winners == 1)
        payouts[rows[alone], c[alone]] = pot[alone]
        both = played & c_made & (winners > 1)
        if both.any():
            self._split(payouts, both, pot, made, c, r)
        return payouts, penalties

    def _split(self, payouts: np.ndarray, mask: np.ndarray, pot: np.ndarray, made: np.ndarray, c: np.ndarray,
               r: HouseRules) -> None:
        idx = np.flatnonzero(mask)
        others = made[idx].sum(axis=1) - 1
        P = pot[idx]
        if r.split == "by_role":  # Rappen by weight, largest remainders first in play order from the Chratzer
            for b, P_b, c_b in zip(idx, P, c[idx]):
                seats = [(c_b + k) % self.n for k in range(self.n) if made[b, (c_b + k) % self.n]]
                weights = {q: 2 if q == c_b else 1 for q in seats}
                total = sum(weights.values())
                shares = {q: P_b * w // total for q, w in weights.items()}
                left = P_b - sum(shares.values())
                for q in sorted(weights, key=lambda q: -(P_b * weights[q] % total))[:left]:
                    shares[q] += 1
                for q, v in shares.items():
                    payouts[b, q] = v
            return
        unit = 3 * r.rounding_unit
        c_share = np.minimum(P, np.array([round_up(2 * int(x), unit) for x in P]) // 3)
        each, rest = np.divmod(P - c_share, others)
        payouts[idx] = np.where(made[idx], each[:, None], 0)
        payouts[idx, c[idx]] = c_share + rest
