"""An independent reference implementation of RULES.md, used to cross-check the main engine."""

from .record import replay

__all__ = ["replay"]
