"""The engine modules that ``setup.py`` compiles with mypyc (issue 15).

Kept in a module of its own, importing nothing, so that ``setup.py`` reads it without importing
the package, and ``baloot/__init__.py`` (never compiled) reads it to choose the build.
"""

# Names are relative to the package (``ai.rollout`` is ``baloot/ai/rollout.py``).
# Not compiled: ``rules`` (its dataclass validates in ``__post_init__``, after a compiled
# dataclass would already refuse a wrong type with TypeError; it is not on the hot path).
COMPILED: tuple[str, ...] = (
    "cards",
    "actions",
    "play",
    "projects",
    "scoring",
    "bidding",
    "hand",
    "sawa",
    "bench",
    # The hard AI's search (issue 15): deal sampling, rollouts and the card player they run.
    "ai.card_play",
    "ai.rollout",
    "ai.view_position",
    "ai.deal_sampler",
    "ai.bid_inference",
    "ai.hand_evaluation",
)
