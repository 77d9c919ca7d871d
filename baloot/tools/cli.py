"""Command line: ``replay FILE`` (R10), ``review FILE``, ``bench``, ``arena`` and ``play`` (the web table)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..engine.records import replay_text
from ..review.model import DEFAULT_SAMPLES, MAX_SAMPLES

RECORD_LIMIT = 64 * 1024 * 1024
"""The largest record ``replay`` reads, in bytes (a 100-hand record is well under 1 MiB)."""


def _read(path: str) -> str:
    """The record's text: a file, or standard input for ``-``, as UTF-8 whatever the locale (R10's
    records are JSON, which is UTF-8), at most :data:`RECORD_LIMIT` bytes. Raises ValueError."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(RECORD_LIMIT + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(RECORD_LIMIT + 1)
    except OSError as exc:
        raise ValueError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > RECORD_LIMIT:
        raise ValueError(f"cannot read {name}: a record is at most {RECORD_LIMIT // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"cannot read {name}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset "
                         f"{exc.start})") from None


def _print_json(obj: object) -> None:
    """One JSON object and a newline on standard output, in UTF-8 whatever the console's encoding. A
    reader that stops early (``| head``) is no error: the rest is dropped without a traceback."""
    try:
        sys.stdout.buffer.write(json.dumps(obj, ensure_ascii=False).encode("utf-8") + b"\n")
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        # Python flushes standard output again at exit, which would fail the same way
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _replay(path: str) -> int:
    """R10: print one JSON object; exit 0 for a valid record, 1 for an invalid one."""
    try:
        text = _read(path)
    except ValueError as exc:
        _print_json({"error": {"hand": None, "action": None, "message": str(exc)}})
        return 1
    code, out = replay_text(text)
    _print_json(out)
    return code


def _review(args: argparse.Namespace) -> int:
    """Review a record (R10): text, or one JSON object with ``--json``; an invalid record
    or hand number prints R10's error object and exits 1."""
    from ..engine.errors import RecordError
    from ..engine.records import load_record
    from ..review import review_match
    from ..review.text import match_text

    try:
        match = load_record(_read(args.record))
    except ValueError as exc:  # RecordError is a ValueError too, with R10's error object
        _print_json(exc.to_json() if isinstance(exc, RecordError) else
                    {"error": {"hand": None, "action": None, "message": str(exc)}})
        return 1
    hands = None
    if args.hand is not None:
        if not 0 <= args.hand < len(match.hands):
            message = f"the record has {len(match.hands)} hands (0 to {len(match.hands) - 1})"
            _print_json({"error": {"hand": args.hand, "action": None, "message": message}})
            return 1
        hands = [args.hand]
    review = review_match(match, hands=hands, samples=args.samples, seed=args.seed)
    if args.json:
        _print_json(review.to_json())
    else:
        try:
            sys.stdout.write(match_text(review) + "\n")
            sys.stdout.flush()
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m baloot", description="Baloot engine tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="check a game record (R10) and print its result as JSON")
    p_replay.add_argument("file", help="the record file, or - for standard input")
    p_review = sub.add_parser("review", help="judge every decision of a record's finished hands")
    p_review.add_argument("record", nargs="?", help="the record file, or - for standard input")
    p_review.add_argument("--hand", type=int, help="review only this hand (0-based)")
    p_review.add_argument("--seed", type=int, default=0, help="seed of the sampled deals")
    p_review.add_argument("--json", action="store_true", help="print one JSON object")
    p_review.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                          help=f"sampled deals per judged decision (1 to {MAX_SAMPLES})")
    p_review.add_argument("--bench", action="store_true", help="measure the reviewer on AI games instead")
    p_review.add_argument("--matches", type=int, default=10, help="--bench: duplicate match pairs for ranking")
    p_review.add_argument("--hands", type=int, default=10, help="--bench: hands for time and stability")
    p_review.add_argument("--minutes", type=float, help="--bench: begin no new match pair after this long")
    p_bench = sub.add_parser("bench", help="measure the engine's speed on one core")
    p_bench.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    p_bench.add_argument("--seed", type=int, default=1)
    p_bench.add_argument("--hard", action="store_true", help="measure the hard AI's sampled deals per second instead")
    sub.add_parser("arena", help="play AI teams against each other on duplicate deals", add_help=False)
    p_play = sub.add_parser("play", help="play at a table in your browser, no Discord needed")
    p_play.add_argument("--host", default="127.0.0.1", help="address to serve on (0.0.0.0: your network too)")
    p_play.add_argument("--port", type=int, default=8080)
    p_play.add_argument("--database", default=os.environ.get("DATABASE_PATH") or "data/baloot.db",
                        help="the SQLite file (default: DATABASE_PATH or data/baloot.db)")
    p_play.add_argument("--people", type=int, default=1, choices=range(1, 5),
                        help="people who sit before the match starts (the rest are bots); default 1")
    p_play.add_argument("--bots", default="normal", choices=("easy", "normal", "hard"), help="the bots' level")
    p_play.add_argument("--turn-seconds", type=float, default=60.0, help="seconds per turn (5..600)")
    p_play.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before acting")
    args, rest = parser.parse_known_args(argv)
    if args.command == "arena":
        from .arena import main as arena_main

        return int(arena_main(rest))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "review":
        if not 1 <= args.samples <= MAX_SAMPLES:
            parser.error(f"--samples must be 1 to {MAX_SAMPLES}, not {args.samples}")
        if args.bench:
            from .review_bench import run_review_bench

            return run_review_bench(args.hands, args.matches, args.samples, args.seed, args.minutes)
        if args.record is None:
            parser.error("review needs a RECORD (a file or -), or --bench")
        return _review(args)
    if args.command == "bench":
        from .bench import run_bench

        return run_bench(args.seconds, args.seed, args.hard)
    if args.command == "play":
        import asyncio

        from .play import run_play

        return asyncio.run(run_play(args.host, args.port, args.database, args.people, args.bots,
                                    args.turn_seconds, args.bot_delay))
    return 2
