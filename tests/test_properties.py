"""Property tests over random complete hands (hypothesis drives the seeds and the settings)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import CardPlayed, Hand, HandsKnown, HouseRules, Session
from engine.flags import OBLIGATION_RULES
from engine.rules import legal_cards
from engine.simulate import simulate_hand, simulate_session

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=7)
house_rules = st.builds(
    HouseRules,
    split=st.sampled_from(["two_thirds", "by_role"]),
    rounding_unit=st.sampled_from([1, 5, 10, 20, 50]),
    no_bid=st.sampled_from(["new_upcard", "redeal"]),
    letzter=st.booleans(), bannerrunde=st.booleans(), revoke_penalty=st.booleans(),
    ante_only_into_empty_pot=st.booleans(), ante=st.sampled_from([10, 20, 50]),
)


@settings(deadline=None)
@given(seeds, players, house_rules)
def test_every_legal_random_hand_has_four_tricks_and_no_flag(seed, n, rules):
    sim = simulate_hand(random.Random(seed), n, rules)
    h = sim.hand
    assert h.phase == "done"
    assert not h.flags
    if h.result == "played":
        assert len(h.tricks) == 4
        assert sum(h.tricks_won) == 4
        for t in h.tricks:
            assert len({x.player for x in t.plays}) == len(t.plays)


@settings(deadline=None)
@given(seeds, players)
def test_in_known_hands_every_legal_move_listed_is_legal_and_each_play_was_listed(seed, n):
    sim = simulate_hand(random.Random(seed), n)
    if sim.hand.result != "played":
        return
    replay = Hand(sim.events[0], sim.hand.rules)
    for ev in sim.events[1:]:
        if isinstance(ev, CardPlayed):
            assert ev.card in replay.legal_moves(ev.player)
        replay.apply(ev)


@settings(deadline=None)
@given(seeds, players)
def test_in_known_hands_every_random_illegal_play_is_flagged_at_once(seed, n):
    rng = random.Random(seed)
    sim = simulate_hand(rng, n, illegal_rate=0.5)
    flagged = {(f.trick, f.player) for f in sim.hand.flags.values() if f.rule in OBLIGATION_RULES}
    assert flagged == {(t, p) for t, p, _ in sim.illegal}
    for f in sim.hand.flags.values():
        play = sim.hand.events[f.raised_at]
        assert isinstance(play, CardPlayed) and play.player == f.player and play.card.code == f.card


def provable(plays, trump, swap):
    """Oracle: obligation flags provable from the plays so far (RULES.md §6), written apart from
    the engine. ``plays``: (trick, player, card, led suit or None); ``swap``: (player, upcard)."""
    out = {}
    for i, (t, p, c, led) in enumerate(plays):
        if led is None or c.suit == led:
            continue
        later = [c2 for (_, p2, c2, _) in plays[i + 1:] if p2 == p]
        if swap and swap[0] == p and swap[1] not in [c2 for (_, p2, c2, _) in plays[:i + 1] if p2 == p]:
            later.append(swap[1])
        if any(x.suit == led for x in later):
            out[(t, p)] = "revoke"
        elif led != trump and c.suit != trump and any(x.suit == trump for x in later):
            out[(t, p)] = "failed_trump"
    return out


@settings(deadline=None)
@given(seeds, players)
def test_in_hidden_hands_a_flag_is_raised_exactly_when_the_evidence_exists(seed, n):
    sim = simulate_hand(random.Random(seed), n, illegal_rate=0.4)
    hidden = Hand(sim.events[0], sim.hand.rules)
    plays, swap = [], None
    for ev in sim.events[1:]:
        if isinstance(ev, HandsKnown):
            continue
        hidden.apply(ev)
        if ev.type == "trump_six_swap":
            swap = (ev.player, hidden.upcards[-1])
        if isinstance(ev, CardPlayed):
            last = hidden.plays_by[hidden.index[ev.player]][-1]
            plays.append((last.trick, ev.player, ev.card, last.led_suit))
            got = {(f.trick, f.player): f.rule for f in hidden.flags.values() if f.rule in OBLIGATION_RULES}
            assert got == provable(plays, hidden.trump, swap)
    # and nothing but a truly illegal play is ever flagged
    truly = {(t, p) for t, p, _ in sim.illegal}
    assert {(f.trick, f.player) for f in hidden.flags.values()} <= truly


@settings(deadline=None)
@given(seeds, players, house_rules, st.integers(min_value=1, max_value=12))
def test_money_is_conserved_over_random_sessions(seed, n, rules, hands):
    s = Session(rules)
    simulate_session(random.Random(seed), hands, n, s, illegal_rate=0.2)
    assert sum(s.balances.values()) + s.pot == 0
    assert all(isinstance(v, int) for v in s.balances.values())
    for st_ in s.settlements():
        assert st_.carried_out >= 0
        assert sum(st_.payouts.values()) <= st_.pot


@settings(deadline=None)
@given(seeds)
def test_legal_cards_follow_the_obligations(seed):
    from engine import DECK
    rng = random.Random(seed)
    hand = rng.sample(DECK, 4)
    led, trump = rng.randrange(4), rng.randrange(4)
    legal = legal_cards(hand, led, trump)
    assert legal and set(legal) <= set(hand)
    if any(c.suit == led for c in hand):
        assert all(c.suit == led for c in legal)
    elif any(c.suit == trump for c in hand):
        assert all(c.suit == trump for c in legal)
    else:
        assert legal == hand
