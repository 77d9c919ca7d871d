"""Tools on top of the engine and the AI: the command line, the arena and the engine benchmark.

Nothing below (engine, ai, tables, storage, render) imports this package.
"""
