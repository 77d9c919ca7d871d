"""The engine modules that ``setup.py`` compiles with mypyc (issue 15).

Kept in a module of its own, importing nothing, so that ``setup.py`` reads it without importing
the package, and ``baloot/__init__.py`` (never compiled) reads it to choose the build.
"""

COMPILED: tuple[str, ...] = (
    "rules",
    "play",
    "projects",
    "scoring",
    "bidding",
    "hand",
)
