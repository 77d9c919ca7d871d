"""The engine modules that ``setup.py`` compiles with mypyc.

Kept in a module of its own, importing nothing, so that ``setup.py`` reads it without importing
the package, and ``baloot/__init__.py`` (never compiled) reads it to choose the build.
"""

# Names are relative to the package (``ai.rollout`` is ``baloot/ai/rollout.py``).
# Not compiled: ``rules`` (its dataclass validates in ``__post_init__``, after a compiled
# dataclass would already refuse a wrong type with TypeError; it is not on the hot path);
# ``view``, ``match``, ``record``, ``summary`` (once per decision, hand or record, not in any
# search loop: ``python -m baloot bench`` and ``bench --hard`` spend no measurable time there;
# ``view``'s frozen dataclasses also cross to the AI's worker processes by pickle); the AI's
# bidding policy and levels (one call per decision). ``bench`` is compiled so that its driver
# loop measures the engine, not the interpreter (in the pure build it runs as Python).
COMPILED: tuple[str, ...] = (
    "engine.cards",
    "engine.actions",
    "engine.play",
    "engine.projects",
    "engine.scoring",
    "engine.bidding",
    "engine.hand",
    "engine.sawa",
    "tools.bench",
    # The hard AI's search: deal sampling, rollouts and the card player they run.
    "ai.card_play",
    "ai.rollout",
    "ai.view_position",
    "ai.deal_sampler",
    "ai.bid_inference",
    "ai.hand_evaluation",
    "ai.endgame",
    "ai.knowledge",
    "ai.hard",
)
