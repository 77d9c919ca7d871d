"""Command line: ``replay FILE`` (R10) and ``bench``."""

from __future__ import annotations

import argparse
import json
import sys

from .record import replay_text


def _replay(path: str) -> int:
    """R10: print one JSON object; exit 0 for a valid record, 1 for an invalid one."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(json.dumps({"error": {"hand": None, "action": None, "message": f"cannot read {path}: {exc}"}}))
        return 1
    code, out = replay_text(text)
    print(json.dumps(out, ensure_ascii=False))
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baloot", description="Baloot engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="check a game record (R10) and print its result as JSON")
    p_replay.add_argument("file", help="the record file, or - for standard input")
    p_bench = sub.add_parser("bench", help="measure the engine's speed on one core")
    p_bench.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    p_bench.add_argument("--seed", type=int, default=1)
    p_bench.add_argument("--hard", action="store_true", help="measure the hard AI's sampled deals per second instead")
    sub.add_parser("arena", help="play AI teams against each other on duplicate deals", add_help=False)
    args, rest = parser.parse_known_args(argv)
    if args.command == "arena":
        from .arena import main as arena_main

        return int(arena_main(rest))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "bench":
        from .bench import run_bench

        return run_bench(args.seconds, args.seed, args.hard)
    return 2
