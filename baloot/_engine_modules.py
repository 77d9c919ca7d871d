"""The engine modules that ``setup.py`` compiles with mypyc (issue 15).

Kept in a module of its own, importing nothing, so that ``setup.py`` reads it without importing
the package, and ``baloot/__init__.py`` (never compiled) reads it to choose the build.
"""

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
)
