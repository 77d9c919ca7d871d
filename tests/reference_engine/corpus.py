"""Record generation, mutation and comparison shared by ``tests/engine/test_differential.py`` and ``fuzz.py``.

Random games come from two independent sources: the main engine's ``Match`` API
(black box) and this reference engine's own ``Hand.legal_actions``.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from .cards import RANKS, SUITS
from .hand import ACTION_TYPES, Hand
from .record import BOOL_OPTIONS, _read_action, _read_rules, replay

Record = dict[str, Any]
ALL = [r + s for r in RANKS for s in SUITS]


# --------------------------------------------------------------------------- random records
def random_rules(rng: random.Random) -> dict[str, Any]:
    rules: dict[str, Any] = {name: rng.random() < 0.5 for name in BOOL_OPTIONS}
    rules["target"] = rng.choice([21, 41, 152, 152, rng.randint(5, 200)])
    return rules


def random_deck(rng: random.Random) -> list[str]:
    """A shuffled pack, sometimes arranged to reach rare rules: an Ace up card, a Kawesh hand."""
    deck = list(ALL)
    rng.shuffle(deck)
    if rng.random() < 0.2:  # up card an Ace (ashkal_on_ace, third_round_on_ace)
        i = deck.index(rng.choice([c for c in ALL if c[0] == "A"]))
        deck[20], deck[i] = deck[i], deck[20]
    if rng.random() < 0.15:  # somebody's first five cards all 7/8/9 (Kawesh)
        p = rng.randrange(4)
        slots = [3 * p, 3 * p + 1, 3 * p + 2, 12 + 2 * p, 13 + 2 * p]
        lows = rng.sample([c for c in ALL if c[0] in "789"], 5)
        for slot, card in zip(slots, lows, strict=True):
            j = deck.index(card)
            deck[slot], deck[j] = deck[j], deck[slot]
    return deck


WEIGHTS = {"pass": 4.0, "hokum": 3.0, "sun": 1.0, "ashkal": 1.0, "kawesh": 1.0, "double": 1.5, "declare": 20.0}


def _pick(rng: random.Random, acts: list[dict[str, Any]]) -> dict[str, Any]:
    """A random legal action, biased towards Hokum, passing and declaring so that every rule gets exercised."""
    weights = [WEIGHTS.get(a["type"], 1.0) for a in acts]
    if any(a["type"] == "play" for a in acts):
        weights = [20.0 if a["type"] == "declare" else 1.0 for a in acts]
    return rng.choices(acts, weights=weights)[0]


def reference_game(seed: int, max_hands: int = 60) -> Record:
    """A random legal match driven by the reference engine's own legal actions."""
    rng = random.Random(seed)
    record: Record = {"format": "baloot-game/1", "rules": random_rules(rng), "hands": []}
    dealer = rng.randrange(4)
    for _ in range(max_hands):
        code, out = replay(record)
        assert code == 0, out
        if out["winner"] is not None:
            break
        rules = _read_rules(record.get("rules"))
        hand = Hand(rules=rules, dealer=dealer, deck=random_deck(rng), match_score=tuple(out["score"]))
        actions: list[dict[str, Any]] = []
        while not hand.finished:
            act = _pick(rng, hand.legal_actions())
            actions.append(act)
            hand.apply(_read_action(act))
        record["hands"].append({"dealer": dealer, "deck": hand.deck, "actions": actions})
        dealer = (dealer + 1) % 4
    return record


def main_engine_game(seed: int, max_steps: int = 20000) -> Record:
    """A random legal match driven by the main engine's public API (black box)."""
    from baloot import Match, Rules

    rng = random.Random(seed)
    m = Match(Rules(**random_rules(rng)), rng.randrange(4))
    steps = 0
    while not m.finished and steps < max_steps:
        steps += 1
        if m.needs_deal:
            m.deal(rng)
            continue
        acts = m.legal_actions()
        chosen = _pick(rng, [a.to_json() for a in acts])
        m.apply(acts[[a.to_json() for a in acts].index(chosen)])
    rec: Record = m.to_record()
    return rec


def cut(record: Record, rng: random.Random) -> Record:
    """The record of a game in progress: cut after a random action."""
    rec = copy.deepcopy(record)
    hands = rec["hands"]
    if not hands:
        return rec
    h = rng.randrange(len(hands))
    del hands[h + 1 :]
    acts = hands[h]["actions"]
    del acts[rng.randint(0, len(acts)) :]
    return rec


# --------------------------------------------------------------------------- mutations
GARBAGE: list[Any] = [None, True, False, "1", "0", 1.0, -1, 4, 99, [], {}, "", "XX", "10S", "AX", "S", 0]


def _rand_action(rng: random.Random) -> dict[str, Any]:
    a: dict[str, Any] = {"seat": rng.randrange(4), "type": rng.choice(sorted(ACTION_TYPES))}
    if a["type"] == "play":
        a["card"] = rng.choice(ALL)
    if a["type"] in ("double", "four") or rng.random() < 0.1:
        a["locked"] = rng.random() < 0.5
    if a["type"] == "hokum" and rng.random() < 0.5:
        a["suit"] = rng.choice(SUITS)
    return a


def mutate(record: Record, rng: random.Random, known: bool = True) -> tuple[str, Record]:
    """One random mutation of a record; returns (name, mutated record).

    ``known=False`` avoids the two mutations behind the disagreements already documented in
    ``tests/engine/test_differential.py`` (lower-case card names, a garbage ``suit`` on a Hokum bid)."""
    rec = copy.deepcopy(record)
    hands: list[dict[str, Any]] = rec["hands"]
    h = rng.randrange(len(hands))
    hand = hands[h]
    acts: list[dict[str, Any]] = hand["actions"]
    i = rng.randrange(len(acts)) if acts else 0
    kind = rng.choice(MUTATIONS)
    if kind == "type":
        acts[i]["type"] = rng.choice(sorted(ACTION_TYPES))
    elif kind == "seat":
        acts[i]["seat"] = rng.randrange(4)
    elif kind == "card":
        # a card the player holds is more interesting than a random one
        cards = [a["card"] for a in acts[i:] if a.get("type") == "play" and a.get("seat") == acts[i]["seat"]]
        acts[i]["card"] = rng.choice(cards) if cards and rng.random() < 0.8 else rng.choice(ALL)
    elif kind == "locked":
        j = rng.choice([k for k, a in enumerate(acts) if a["type"] in ("double", "four")] or [i])
        choice = rng.choice(["flip", "drop", "garbage", "add"])
        if choice == "flip":
            acts[j]["locked"] = not acts[j].get("locked", False)
        elif choice == "drop":
            acts[j].pop("locked", None)
        elif choice == "garbage":
            acts[j]["locked"] = rng.choice(GARBAGE)
        else:
            acts[j]["locked"] = True
    elif kind == "suit":
        j = rng.choice([k for k, a in enumerate(acts) if a["type"] == "hokum"] or [i])
        choice = rng.choice(["change", "drop", "garbage"] if known else ["change", "drop"])
        if choice == "change":
            acts[j]["suit"] = rng.choice(SUITS)
        elif choice == "drop":
            acts[j].pop("suit", None)
        else:
            acts[j]["suit"] = rng.choice(GARBAGE)
    elif kind == "drop":
        if acts:
            del acts[i]
    elif kind == "insert":
        acts.insert(i, _rand_action(rng))
    elif kind == "duplicate":
        if acts:
            acts.insert(i, copy.deepcopy(acts[i]))
    elif kind == "swap":
        if len(acts) > 1:
            j = min(i + 1, len(acts) - 1)
            i = j - 1
            acts[i], acts[j] = acts[j], acts[i]
    elif kind == "dealer":
        hand["dealer"] = rng.choice([d for d in range(4) if d != hand["dealer"]])
    elif kind == "deck_duplicate":
        a, b = rng.sample(range(32), 2)
        hand["deck"][a] = hand["deck"][b]
    elif kind == "deck_garbage":
        choice = rng.choice(["short", "long", "lower", "bad"] if known else ["short", "long", "bad"])
        if choice == "short":
            hand["deck"].pop()
        elif choice == "long":
            hand["deck"].append(hand["deck"][0])
        elif choice == "lower":
            j = rng.randrange(32)
            hand["deck"][j] = hand["deck"][j].lower()
        else:
            hand["deck"][rng.randrange(32)] = rng.choice(GARBAGE)
    elif kind == "format":
        rec["format"] = rng.choice(["baloot-game/2", None, 1, "BALOOT-GAME/1", ""])
    elif kind == "after_end":
        last = hands[-1]
        hands.append({"dealer": (last["dealer"] + 1) % 4, "deck": list(ALL), "actions": []})
    elif kind == "after_unfinished":
        del hands[h + 1 :]
        if acts:
            del acts[rng.randrange(len(acts)) :]
        hands.append({"dealer": (hand["dealer"] + 1) % 4, "deck": list(ALL), "actions": []})
    elif kind == "garbage":
        target = rng.choice(["seat", "type", "card", "dealer", "deck", "actions", "hand", "action", "rule"])
        value = rng.choice(GARBAGE)
        if target in ("seat", "type", "card") and acts:
            acts[i][target] = value
        elif target == "action" and acts:
            acts[i] = value
        elif target == "hand":
            hands[h] = value
        elif target == "rule":
            rec["rules"][rng.choice([*BOOL_OPTIONS, "target"])] = value
        elif target in ("dealer", "deck", "actions"):
            hand[target] = value
    elif kind == "extra_keys":
        where = rng.choice(["record", "rules", "hand", "action"])
        obj: dict[str, Any] = {"record": rec, "rules": rec["rules"], "hand": hand, "action": acts[i] if acts else hand}[
            where
        ]
        obj[rng.choice(["foo", "comment", "x-extra", "note"])] = rng.choice([1, "bar", None, {"a": 1}, [1]])
    elif kind == "missing_key":
        where = rng.choice(["seat", "type", "card", "dealer", "deck", "actions", "rules", "hands"])
        if where in ("seat", "type", "card") and acts:
            acts[i].pop(where, None)
        elif where in ("dealer", "deck", "actions"):
            hand.pop(where, None)
        else:
            rec.pop(where, None)
    elif kind == "alternative" and acts:
        # replace one action by another plausible one at the same point, often cutting the rest
        seat = acts[i]["seat"]
        hand_cards = [a["card"] for a in acts[i:] if a.get("type") == "play" and a.get("seat") == seat]
        alt = _rand_action(rng)
        if rng.random() < 0.8:
            alt["seat"] = seat
        if hand_cards and rng.random() < 0.6:
            alt = {"seat": alt["seat"], "type": "play", "card": rng.choice(hand_cards)}
        acts[i] = alt
        if rng.random() < 0.7:
            del acts[i + 1 :]
            del hands[h + 1 :]
    elif kind == "rules_flip":
        name = rng.choice(BOOL_OPTIONS)
        rec["rules"][name] = not rec["rules"].get(name, False)
    return kind, rec


MUTATIONS = [
    "type", "type", "seat", "seat", "card", "card", "card", "locked", "suit", "drop", "drop", "insert", "insert",
    "duplicate", "swap", "swap", "dealer", "deck_duplicate", "deck_garbage", "format", "after_end",
    "after_unfinished", "garbage", "garbage", "extra_keys", "extra_keys", "missing_key", "rules_flip",
    "alternative", "alternative", "alternative", "alternative", "alternative", "alternative",
]  # fmt: skip


# --------------------------------------------------------------------------- comparison
def normalise(out: dict[str, Any]) -> dict[str, Any]:
    """R11.7: the projects list may come in any order; error messages are free text."""
    out = copy.deepcopy(out)
    if "error" in out:
        return {"error": {"hand": out["error"].get("hand"), "action": out["error"].get("action")}}
    for hand in out.get("hands", []):
        if isinstance(hand.get("projects"), list):
            hand["projects"].sort(key=lambda p: json.dumps(p, sort_keys=True))
    return out


def run_both(record: Record) -> tuple[tuple[int, dict[str, Any]], tuple[int, dict[str, Any]]]:
    from baloot.engine.records import replay_text

    text = json.dumps(record)
    main = replay_text(text)
    ref = replay(json.loads(text))
    return (main[0], main[1]), ref


def disagreement(record: Record) -> str | None:
    """None when both engines agree on the record, else a short description."""
    (mc, mo), (rc, ro) = run_both(record)
    m, r = normalise(mo), normalise(ro)
    if mc == rc and m == r:
        return None
    if "error" in m or "error" in r:
        return f"main {mc} {m.get('error', 'accepts')} / reference {rc} {r.get('error', 'accepts')}"
    for i, (a, b) in enumerate(zip(m["hands"], r["hands"], strict=False)):
        if a != b:
            diff = {k: (a.get(k), b.get(k)) for k in b if a.get(k) != b.get(k)}
            return f"hand {i} differs (main, reference): {diff}"
    return f"match differs: main {m['score']} {m['winner']} / reference {r['score']} {r['winner']}"


def neighbours(record: Record, rng: random.Random) -> list[Record]:
    """Every plausible next action at one random point of a record (each as its own cut record):
    compares the two engines' sets of legal actions there, not just one sampled choice."""
    hands = record["hands"]
    h = rng.randrange(len(hands))
    acts = hands[h]["actions"]
    i = rng.randint(0, len(acts))
    seats = {a["seat"] for a in acts[i : i + 1]} or {rng.randrange(4)}
    candidates: list[dict[str, Any]] = []
    for seat in [*sorted(seats), rng.randrange(4)]:
        for kind in sorted(ACTION_TYPES):
            if kind == "play":
                candidates.extend({"seat": seat, "type": "play", "card": c} for c in ALL)
            elif kind in ("double", "four"):
                candidates.extend({"seat": seat, "type": kind, "locked": f} for f in (True, False))
                candidates.append({"seat": seat, "type": kind})
            elif kind == "hokum":
                candidates.append({"seat": seat, "type": kind})
                candidates.extend({"seat": seat, "type": kind, "suit": s} for s in SUITS)
            else:
                candidates.append({"seat": seat, "type": kind})
    out = []
    for cand in candidates:
        rec = copy.deepcopy(record)
        del rec["hands"][h + 1 :]
        rec["hands"][h]["actions"] = [*rec["hands"][h]["actions"][:i], cand]
        out.append(rec)
    return out
