"""An independent reference implementation of docs/rules.md, used to cross-check the main engine."""

from .record import replay

__all__ = ["replay"]
