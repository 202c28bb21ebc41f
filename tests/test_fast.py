"""The engine's fast path (engine.fast) referees each hand exactly as the readable engine does: every
fast hand is replayed through ``Hand`` event for event and every result compared."""

import numpy as np
import pytest

from engine.fast import PLAYED, RESULTS, simulate_batch
from engine.hand import Hand
from engine.rules import HouseRules
from engine.settlement import settle


def same_as_the_reference(batch, b: int) -> None:
    events = batch.events(b)
    hand = Hand(events[0], batch.rules)
    for ev in events[1:]:
        hand.apply(ev)
    seats = hand.seats
    assert hand.result == RESULTS[batch.result[b]], b
    assert not hand.flags, (b, [f.to_dict() for f in hand.flags.values()])
    if batch.result[b] == PLAYED:
        assert [seats[t.winner] for t in hand.tricks] == [seats[w] for w in batch.winners[b] if w >= 0], b
        assert hand.tricks_won == list(batch.tricks_won[b]), b
    s = settle(hand)
    assert s.payouts == {seats[q]: int(v) for q, v in enumerate(batch.payouts[b]) if v}, b
    assert s.penalties == {seats[q]: int(v) for q, v in enumerate(batch.penalties[b]) if v}, b
    assert s.pot == batch.pot[b]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_the_fast_path_referees_every_hand_as_the_readable_engine(players):
    batch = simulate_batch(np.random.default_rng(players), 170, players)
    for b in range(len(batch)):
        same_as_the_reference(batch, b)


@pytest.mark.parametrize("rules", [HouseRules(split="by_role", rounding_unit=10), HouseRules(letzter=True, bannerrunde=True),
                                   HouseRules(no_bid="redeal", blind_allowed=False, double_blind_allowed=False),
                                   HouseRules(max_upcards=1, ante=35)])
def test_the_fast_path_follows_the_house_rules_as_the_readable_engine(rules):
    batch = simulate_batch(np.random.default_rng(7), 200, 4, rules, blind_rate=0.2)
    for b in range(len(batch)):
        same_as_the_reference(batch, b)


def test_money_is_conserved_in_every_fast_hand():
    batch = simulate_batch(np.random.default_rng(1), 2000, 5)
    carried = batch.pot - batch.payouts.sum(axis=1) + batch.penalties.sum(axis=1)
    assert (carried >= 0).all() and (batch.payouts.sum(axis=1) <= batch.pot).all()


@pytest.mark.parametrize("bots", ["hhhh", "hrhr", "rrrh"])
def test_hands_the_heuristic_bot_plays_are_refereed_as_the_readable_engine(bots):
    batch = simulate_batch(np.random.default_rng(11), 300, 4, bots=bots)
    for b in range(len(batch)):
        same_as_the_reference(batch, b)


def test_a_bot_per_seat_is_one_letter_each():
    with pytest.raises(ValueError, match="one of r"):
        simulate_batch(np.random.default_rng(0), 5, 4, bots="hhx")
