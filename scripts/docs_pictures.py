"""Draw the pictures shown in README.md into docs/: bidding, mid-trick Hokum, hand end, and a game review
(of the stored review tests/render/review_hand.json, a hand of normal bots judged with 6 deals a decision).

    .venv/bin/python scripts/docs_pictures.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from baloot.engine.hand import Hand, Phase  # noqa: E402
from baloot.engine.match import Match  # noqa: E402
from baloot.engine.view import public_view  # noqa: E402
from baloot.render.model import RenderInfo  # noqa: E402
from baloot.render.picture import table_picture  # noqa: E402
from baloot.render.review_picture import review_picture  # noqa: E402
from baloot.review import HandReview  # noqa: E402

EN = RenderInfo("1", ("Ali", "Omar", "Saad", "Faisal"), is_bot=(False, False, False, True))
AR = RenderInfo("1", ("عبدالله", "محمد", "سارة", "Bot 4"), language="ar")


def find(want: str) -> Hand:
    """A random hand stopped at the wanted moment: ``bidding``, ``hokum`` (a trick half played) or ``end``."""
    for seed in range(1000):
        rng = random.Random(seed)
        match = Match(None, seed % 4)
        for _ in range(2):  # the second hand, so the match score is not 0-0
            if match.finished:
                break
            hand = match.deal(rng)
            steps = 0
            while not hand.finished:
                if hand is match.hands[-1] and len(match.hands) == 2:
                    if want == "bidding" and hand.phase == Phase.BIDDING and steps == 2:
                        return hand
                    if (want == "hokum" and hand.phase == Phase.PLAYING and hand.contract == "hokum"
                            and hand.level > 1 and len(hand.tricks_history) == 3 and len(hand.trick) == 3):
                        return hand
                match.apply(rng.choice(hand.legal_actions()))
                steps += 1
            if want == "end" and len(match.hands) == 2 and hand.score is not None and min(hand.score) > 0:
                return hand
    raise SystemExit(f"no {want} state found")


def main() -> int:
    out = ROOT / "docs"
    out.mkdir(exist_ok=True)
    bidding, hokum, end = find("bidding"), find("hokum"), find("end")
    shots = {
        "table-bidding-en.png": (EN, bidding, None),
        "table-hokum-en.png": (EN, hokum, None),
        "table-hokum-ar-seat.png": (AR, hokum, 1),
        "table-end-en.png": (EN, end, None),
        "table-bidding-ar.png": (AR, bidding, None),
    }
    for name, (info, hand, viewer) in shots.items():
        png = table_picture(info, public_view(hand, hand.match_score), viewer)
        (out / name).write_bytes(png)
        print(f"docs/{name}: {len(png)} bytes")
    review = HandReview.from_json(json.loads((ROOT / "tests" / "render" / "review_hand.json").read_text()))
    for language in ("en", "ar"):
        png = review_picture(review, language)
        (out / f"review-{language}.png").write_bytes(png)
        print(f"{out.name}/review-{language}.png: {len(png)} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
