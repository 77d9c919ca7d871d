"""Deals consistent with one seat's view, for the hard level's search.

:func:`sample_holdings` draws the other seats' hidden cards from what the seat
has not seen, honouring every deduction of :mod:`knowledge` (voids, R5.2 trump
inferences, declared projects). :func:`deck_for` turns the full hands into a
deck that deals them (R2: packets of 3 then 2 from p1, the up card at
``deck[20]``, the completion with 2 cards for the taker and 3 for the others),
and :func:`sample_hand` replays ``view.history`` on it (R10), so the result is
a full :class:`~baloot.engine.hand.Hand` at the view's position. Only the view is
read, never the real deal.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..engine.actions import ActionType
from ..engine.cards import ALL_CARDS, RANK_A, SUIT_MASK, Card, iter_bits
from ..engine.errors import BalootError
from ..engine.hand import Hand, Phase
from ..engine.projects import QUAD_RANKS, ProjectType, best_projects
from ..engine.view import SeatView, announced_projects, shown_projects
from .knowledge import Knowledge, infer

STOCK = 4
"""Pseudo-seat for the cards still undealt while bidding (R2.4)."""


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, drawing the same numbers from the same stream.

    ``random.Random``'s own ``_randbelow`` (CPython 3.11+: ``getrandbits`` of ``n.bit_length()``
    bits until one is below ``n``), written here so the compiled sampler calls the C method
    ``getrandbits`` directly; another generator class is asked through ``randrange``.
    """
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, the same permutation from the same stream (see :func:`randbelow`)."""
    for i in range(len(x) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def sample_holdings(k: Knowledge, rng: random.Random) -> list[int] | None:
    """Hidden cards for each seat (index 4: the undealt stock while bidding), or None if impossible.

    Every card of the unseen pool goes to a seat that may hold it
    (``k.allowed``) until each seat holds ``k.counts`` cards. Cards with the
    fewest possible owners are placed first, each to a random owner weighted
    by the room it has left; a dead end is repaired by moving cards along
    augmenting paths, so a consistent deal is always found when one exists.
    """
    seat = k.seat
    holdings = [0, 0, 0, 0, 0]
    room = [0, 0, 0, 0, 0]
    allowed = [0, 0, 0, 0, 0]
    pool = k.unseen
    for s in range(4):
        if s == seat:
            holdings[s] = k.mine
            continue
        holdings[s] = k.known[s]
        pool &= ~k.known[s]
        room[s] = k.counts[s] - k.known[s].bit_count()
        allowed[s] = k.allowed[s] & ~k.known[s]
        if room[s] < 0:
            return None
    pool_size = pool.bit_count()
    room[STOCK] = pool_size - sum(room[:4])
    if room[STOCK] < 0:
        return None
    allowed[STOCK] = pool if room[STOCK] else 0
    owners = [s for s in range(5) if room[s]]
    shuffled = list(iter_bits(pool))
    shuffle(rng, shuffled)
    # A stable sort by the number of possible owners (0..5), written as buckets.
    buckets: list[list[int]] = [[], [], [], [], [], []]
    for c in shuffled:
        n = 0
        for s in owners:
            n += allowed[s] >> c & 1
        buckets[n].append(c)
    cards = [c for bucket in buckets for c in bucket]
    owner_of: dict[int, int] = {}
    for c in cards:
        eligible = [s for s in owners if room[s] and allowed[s] >> c & 1]
        if not eligible:
            if not _augment(c, owners, allowed, room, owner_of, set()):
                return None
            continue
        total = 0
        for s in eligible:
            total += room[s]
        pick = randbelow(rng, total)
        for s in eligible:
            pick -= room[s]
            if pick < 0:
                owner_of[c] = s
                room[s] -= 1
                break
    for c, s in owner_of.items():
        holdings[s] |= 1 << c
    return holdings


def _augment(
    card: int,
    owners: list[int],
    allowed: list[int],
    room: list[int],
    owner_of: dict[int, int],
    seen: set[int],
) -> bool:
    """Place ``card`` by moving already placed cards (an augmenting path, as in bipartite matching)."""
    for s in owners:
        if not allowed[s] >> card & 1 or s in seen:
            continue
        seen.add(s)
        if room[s]:
            owner_of[card] = s
            room[s] -= 1
            return True
        for other, holder in list(owner_of.items()):
            if holder == s and _augment(other, owners, allowed, room, owner_of, seen):
                room[s] += 1  # ``other`` left s; ``card`` takes its place
                owner_of[card] = s
                room[s] -= 1
                return True
    return False


def up_card_candidates(view: SeatView, taker_hand: int) -> list[int]:
    """Cards of the taker's 8 that could have been the up card, judging by the bids (R3).

    Round one Hokum makes trumps the up card's suit; a round-two confirmation
    names another suit; Ashkal is not bid on an Ace (unless ``ashkal_on_ace``);
    the third round happens only on an Ace (R9).
    """
    if view.up_card is not None:
        return [view.up_card.index]
    bids = view.bids
    mask = taker_hand
    named = [b.suit for b in bids if b.type is ActionType.HOKUM and b.suit is not None]
    if named:
        mask &= ~SUIT_MASK[named[-1]]
    elif view.contract == "hokum" and view.trump is not None:
        mask &= SUIT_MASK[view.trump]
    aces = 0x80808080
    if any(b.type is ActionType.ASHKAL for b in bids) and not view.rules.ashkal_on_ace:
        mask &= ~aces
    if view.rules.third_round_on_ace and len(bids) > 8 and all(b.type is ActionType.PASS for b in bids[:8]):
        mask &= aces
    return list(iter_bits(mask))


def deck_for(
    view: SeatView, starts: list[int], up_card: int, stock: int, rng: random.Random
) -> list[Card]:
    """A deck that deals ``starts`` (each seat's 8 cards, or 5 while bidding) by R2.

    ``up_card`` is dealt to ``deck[20]``; while bidding, ``stock`` holds the
    11 undealt cards.
    """
    dealer = view.dealer
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    firsts: list[list[int]] = []
    rests: list[list[int]] = []
    for s in order:
        cards = [c for c in iter_bits(starts[s]) if c != up_card]
        shuffle(rng, cards)
        firsts.append(cards[:5])
        rests.append(cards[5:])
    deck = [c for f in firsts for c in f[:3]] + [c for f in firsts for c in f[3:5]] + [up_card]
    if view.phase == Phase.BIDDING:
        rest = list(iter_bits(stock))
        shuffle(rng, rest)
        deck += rest
    else:
        for r in rests:
            deck += r
    return [ALL_CARDS[c] for c in deck]


def _project_masks(kind: ProjectType, sun: bool) -> list[int]:
    """Every set of cards that makes a project of this kind (R6.1)."""
    if kind is ProjectType.FOUR_HUNDRED:
        return [0x01010101 << RANK_A]
    size = {ProjectType.SIRA: 3, ProjectType.FIFTY: 4, ProjectType.HUNDRED: 5}[kind]
    masks = [((1 << size) - 1) << (suit * 8 + low) for suit in range(4) for low in range(9 - size)]
    if kind is ProjectType.HUNDRED:
        masks += [0x01010101 << rank for rank in QUAD_RANKS if rank != RANK_A or not sun]
    return masks


def _project_key(view: SeatView, mask: int, seat: int, sun: bool) -> tuple[int, ...]:
    """R6.2's order of the best project made of ``mask``, ties to the seat nearer the dealer's right."""
    trump = None if sun else view.trump
    best = best_projects(mask, sun, trump, view.rules.trump_sequence_priority)
    position = (seat - view.dealer - 1) % 4
    return (*best[0].strength(sun, trump, view.rules.trump_sequence_priority), -position) if best else ()


def _shown_best(view: SeatView, sun: bool) -> tuple[tuple[int, ...], int] | None:
    """(R6.2 key, team) of the strongest shown project: every hidden one of the other team lost to it."""
    best: tuple[tuple[int, ...], int] | None = None
    for seat, projects in view.declared:
        if projects:
            key = _project_key(view, projects[0].mask, seat, sun)
            if best is None or key > best[0]:
                best = (key, seat & 1)
    return best


def plant_hidden_projects(view: SeatView, k: Knowledge, rng: random.Random) -> Knowledge:
    """Give each seat that declared a project whose cards are not shown (R6.2) a
    random project of the kind it announced, among the cards it could have held."""
    shown = {s for s, _ in view.declared}
    known = list(k.known)
    sun = view.contract == "sun"
    beaten = _shown_best(view, sun)
    for s, kinds in view.announced:
        if s == k.seat or s in shown or not kinds:
            continue
        others = 0
        for t in range(4):
            if t != s:
                others |= known[t] | k.played_by[t]
        possible = (k.played_by[s] | known[s] | (k.unseen & k.allowed[s])) & ~others
        used = 0
        losing = beaten is not None and beaten[1] != s & 1
        for kind in kinds:  # every announced project, on disjoint cards (R6.1)
            fits = [m for m in _project_masks(kind, sun) if m & possible == m and not m & used]
            if losing and not used and beaten is not None:  # R6.2: its best project lost to the shown one
                fits = [m for m in fits if _project_key(view, m, s, sun) < beaten[0]]
            if not fits:
                break
            used |= fits[randbelow(rng, len(fits))]  # rng.choice(fits)
        planted = used & ~k.played_by[s]
        if (known[s] | planted).bit_count() <= k.counts[s]:
            known[s] |= planted
    return replace(k, known=(known[0], known[1], known[2], known[3]))


def projects_agree(view: SeatView, starts: list[int]) -> bool:
    """Would these hands (as held when play began) declare what the view shows (R6.1, R6.2)?

    Each declaring seat declares its best set of projects, so a sample that
    gives it another best set (say a second Sira) is not consistent.
    """
    sun = view.contract == "sun"
    trump = None if sun else view.trump
    shown = dict(view.declared)
    for seat, kinds in view.announced:
        best = best_projects(starts[seat], sun, trump, view.rules.trump_sequence_priority)
        if tuple(p.type for p in best) != kinds or (seat in shown and best != shown[seat]):
            return False
    return True


def sample_deck(
    view: SeatView, rng: random.Random, knowledge: Knowledge | None = None, tries: int = 20
) -> list[Card] | None:
    """A random deck consistent with ``view`` (R2), or None if the sampler found none.

    Holdings whose declarers would not declare exactly what they did are drawn
    again (up to ``tries`` times; this check is far cheaper than a replay).
    """
    k0 = knowledge if knowledge is not None else infer(view)
    for _ in range(tries):
        k = k0
        if view.announced and len(view.declared) < len(view.announced):
            k = plant_hidden_projects(view, k0, rng)
        holdings = sample_holdings(k, rng)
        if holdings is None:
            continue
        starts = [holdings[s] | k.played_by[s] for s in range(4)]
        if not view.announced or projects_agree(view, starts):
            break
    else:
        return None
    if view.phase == Phase.BIDDING:
        assert k.up_card is not None
        return deck_for(view, holdings[:4], k.up_card, holdings[STOCK], rng)
    taker = view.taker
    assert taker is not None
    candidates = up_card_candidates(view, starts[taker])
    if not candidates:
        return None
    return deck_for(view, starts, candidates[randbelow(rng, len(candidates))], 0, rng)  # rng.choice


def replay(view: SeatView, deck: list[Card]) -> Hand | None:
    """The hand dealt from ``deck`` with ``view.history`` replayed (R10).

    None if an action is illegal on this deal, or if a declaration there
    yields other projects than the view shows (R6.1: the best set is declared).
    """
    hand = Hand(view.dealer, deck, view.rules, view.match_score)
    try:
        for action in view.history:
            hand.apply(action)
    except BalootError:
        return None
    if view.announced and (
        announced_projects(hand) != view.announced or shown_projects(hand, view.seat) != view.declared
    ):
        return None
    return hand


def sample_hand(
    view: SeatView, rng: random.Random, knowledge: Knowledge | None = None, tries: int = 10
) -> Hand | None:
    """A full hand at ``view``'s position whose deal agrees with everything the seat knows."""
    k = knowledge if knowledge is not None else infer(view)
    for _ in range(tries):
        deck = sample_deck(view, rng, k)
        if deck is None:
            continue
        hand = replay(view, deck)
        if hand is not None:
            return hand
    return None

