"""Cost of the table picture: render time p50/p99, cold and cached, and bytes per image.

Random matches are played with random legal actions; at random moments the
hand's public view is drawn as the channel sees it and from a random seat.

- ``cold``: the picture was never drawn, but plates, panels and card faces
  drawn for earlier states are reused (a running bot);
- ``first``: every cache but the palette emptied before each picture (a bot just started);
- ``cached``: the same state again (a re-render of an unchanged table).

``--tables N`` measures what the bot pays instead: N tables (four names each)
played side by side, one action at a time round the tables, the channel's
picture drawn after every action, as the channel board does at each edit
(every action is a new picture; a bot edits at most once a second per channel,
so this is the worst case). It prints the time per picture and how full the
tile caches are (a miss is a tile drawn anew: many misses mean they are too
small for N tables).

    .venv/bin/python scripts/bench_pictures.py [--states 300] [--seed 1]
    .venv/bin/python scripts/bench_pictures.py --tables 100 [--pictures 3000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baloot.engine.match import Match
from baloot.engine.view import public_view
from baloot.render.card_art import has_raqm
from baloot.render.model import RenderInfo
from baloot.render.picture import (
    CACHE_SIZE,
    PictureState,
    clear_cache,
    draw_picture,
    picture_state,
    tile_caches,
)

NAMES = (("Ali", "Omar", "Saad", "Faisal"), ("عبدالله", "محمد", "سارة", "Bot 4"),
         ("ناصر 🂡", "Lee", "فهد", "x" * 32))


def states(count: int, seed: int) -> list[PictureState]:
    """``count`` picture states at random moments of random matches, in English and Arabic."""
    rng = random.Random(seed)
    out: list[PictureState] = []
    while len(out) < count:
        match = Match(None, rng.randrange(4))
        while not match.finished and len(out) < count:
            hand = match.deal(rng)
            while True:
                if rng.random() < 0.25:
                    names = rng.choice(NAMES)
                    info = RenderInfo("bench", names, language=rng.choice(("en", "ar")))
                    viewer = rng.choice((None, 0, 1, 2, 3))
                    out.append(picture_state(info, public_view(hand, hand.match_score), viewer))
                if hand.finished:
                    break
                match.apply(rng.choice(hand.legal_actions()))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(state: PictureState) -> tuple[float, int]:
    start = time.perf_counter()
    png = draw_picture(state)
    return (time.perf_counter() - start) * 1000, len(png)


def side_by_side(tables: int, pictures: int, seed: int) -> int:
    """``--tables``: the channel pictures of ``tables`` tables played in turn (see the module)."""
    rng = random.Random(seed)
    infos = [RenderInfo(f"t{i}", tuple(f"{rng.choice(('Ali', 'Omar', 'سارة', 'فهد', 'Lee'))}{rng.randrange(10**4)}"
                                       for _ in range(4)), language=rng.choice(("en", "ar")))
             for i in range(tables)]
    matches = [Match(None, rng.randrange(4)) for _ in range(tables)]
    hands = [m.deal(rng) for m in matches]
    draw_picture(picture_state(infos[0], public_view(hands[0], hands[0].match_score)))
    times: list[float] = []
    while len(times) < pictures:
        for i in range(tables):
            hand = hands[i]
            if hand.finished:
                if matches[i].finished:
                    matches[i] = Match(None, rng.randrange(4))
                hand = hands[i] = matches[i].deal(rng)
            else:
                matches[i].apply(rng.choice(hand.legal_actions()))
            times.append(timed(picture_state(infos[i], public_view(hand, hand.match_score)))[0])
    times = times[tables * 8:]  # the first rounds fill the caches
    print(f"{tables} tables side by side, {len(times)} pictures after the first rounds: "
          f"p50 {pct(times, 0.5):.3f} ms  p99 {pct(times, 0.99):.3f} ms  mean {statistics.mean(times):.3f} ms")
    for name, info in tile_caches().items():
        rate = info.hits / max(1, info.hits + info.misses)
        print(f"  {name:14s} {info.currsize:4d} of {info.maxsize}, hit rate {rate:.2f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=0, help="the channel pictures of N tables played side by side")
    parser.add_argument("--pictures", type=int, default=3000, help="with --tables: how many pictures to draw")
    args = parser.parse_args()
    if args.tables:
        return side_by_side(args.tables, args.pictures, args.seed)
    sample = states(args.states, args.seed)
    start = time.perf_counter()
    draw_picture(sample[0])  # fonts loaded, the fixed palette adapted: once per process
    once = (time.perf_counter() - start) * 1000
    first: list[float] = []
    for state in sample[: max(20, len(sample) // 10)]:
        clear_cache(sprites=True)
        first.append(timed(state)[0])
    clear_cache(sprites=True)
    cold: list[float] = []
    sizes: list[int] = []
    for state in sample:
        ms, size = timed(state)
        cold.append(ms)
        sizes.append(size)
    cached = [timed(state)[0] for state in sample[-CACHE_SIZE:]]  # the latest pictures, drawn again
    print(f"{len(sample)} states, {WIDTH_X_HEIGHT}, raqm={'yes' if has_raqm() else 'no'}, "
          f"first picture of the process (fonts, palette) {once:.0f} ms")
    for name, values in (("first (all caches empty)", first), ("cold (new state)", cold), ("cached", cached)):
        print(f"  {name:26s} p50 {pct(values, 0.5):8.3f} ms   p99 {pct(values, 0.99):8.3f} ms   n={len(values)}")
    print(f"  bytes per image            p50 {pct([float(s) for s in sizes], 0.5):8.0f}      "
          f"p99 {pct([float(s) for s in sizes], 0.99):8.0f}      max {max(sizes)}  mean {statistics.mean(sizes):.0f}")
    return 0


WIDTH_X_HEIGHT = "800x450 PNG"

if __name__ == "__main__":
    raise SystemExit(main())
