"""The pure rules engine (docs/rules.md R1-R11): cards, bidding, play, projects, scoring, records.

It imports only the standard library: no asyncio, no I/O, no clock, no global random.
"""
