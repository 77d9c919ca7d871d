"""What a hand's review shows: the overview with its picture, and each step of the hand.

Payloads are plain dicts like the rest of :mod:`baloot.render`, private and in
the viewer's language. Step 0 is the overview: each player's accuracy, the
three costliest decisions in words (played, best, points lost, luck or error)
and the picture (:mod:`.review_picture`). Step 1 is the bidding (R3, R4), steps
2-9 the tricks 1-8 (R5): each decision as played, and every legal alternative
of a judged one with its value, the played one marked. Buttons ◀ ▶ step
through the hand; a row of seat buttons puts one player in focus (only their
decisions, their mistakes on the picture) or everyone. Every button is a
review id (:class:`~.custom_ids.ReviewId`): a press works after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action, ActionType
from ..engine.summary import MatchSummary
from ..i18n import t
from ..i18n.direction import is_rtl, orient_payload, rtl_lines
from ..review.model import LUCKY, UNLUCKY, Decision, HandReview, Option
from .components import PRIMARY, SECONDARY, button
from .custom_ids import EVERYONE, ReviewId
from .limits import BUTTONS_PER_ROW, CONTENT, DESCRIPTION, ROWS, clip
from .model import Payload
from .review_picture import FILENAME, costliest, review_picture
from .table import NO_MENTIONS
from .text import action_text, card_text, display_name

REVIEW_COLOR = 0x9B59B6
LABEL_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@dataclass(frozen=True, slots=True)
class ReviewShown:
    """A hand's review with what showing it needs: the table's id, the hand's number and the names at
    seats 0-3 (as Discord gave them)."""

    table_id: str
    hand_no: int
    review: HandReview
    names: tuple[str, str, str, str]


def steps_of(review: HandReview) -> list[int]:
    """The steps this review has: 0 the overview, 1 the bidding, 2 + k trick k (R5)."""
    steps = [0]
    tricks = sorted({d.trick for d in review.decisions})
    steps += [1 if trick < 0 else trick + 2 for trick in tricks]
    return steps


def _name(shown: ReviewShown, seat: int, locale: str) -> str:
    return display_name(shown.names[seat] or str(seat + 1), locale)


def _option_text(action: Action, locale: str) -> str:
    if action.type is ActionType.PLAY and action.card is not None:
        return card_text(action.card, locale)
    return action_text(action, locale)


def _value(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


def progress_payload(locale: str, trick: int, tricks: int) -> Payload:
    """The progress line edited in place while a review is computed."""
    text = (t("review.progress_bidding", locale) if trick < 0
            else t("review.progress_trick", locale, trick=trick + 1, tricks=tricks))
    return orient_payload({"content": text, "embeds": [], "components": [], "allowed_mentions": NO_MENTIONS}, locale)


def _buttons(shown: ReviewShown, step: int, seat: int, locale: str) -> list[dict[str, Any]]:
    """◀ ▶ (round the hand: from the overview ◀ leads to the last trick) and the seat row; every id
    differs (Discord refuses a message with two equal custom_ids), the pressed seat's is this view's own."""
    steps = steps_of(shown.review)
    where = steps.index(step) if step in steps else 0
    table, hand = shown.table_id, shown.hand_no
    prev_step, next_step = steps[where - 1], steps[(where + 1) % len(steps)]
    nav = [button(t("button.review_next", locale), ReviewId(table, hand, next_step, seat).encode(), SECONDARY)]
    if prev_step != next_step:
        nav.insert(0, button(t("button.review_prev", locale), ReviewId(table, hand, prev_step, seat).encode(),
                             SECONDARY))
    seats = [button(clip(_name(shown, s, locale), 80), ReviewId(table, hand, step, s).encode(),
                    PRIMARY if s == seat else SECONDARY) for s in range(4)]
    seats.append(button(t("button.review_everyone", locale), ReviewId(table, hand, step, EVERYONE).encode(),
                        PRIMARY if seat == EVERYONE else SECONDARY))
    return [{"type": 1, "components": nav}, {"type": 1, "components": seats}]


def _costly_line(shown: ReviewShown, d: Decision, locale: str) -> str:
    luck = {UNLUCKY: "review.luck.unlucky", LUCKY: "review.luck.lucky"}.get(d.luck or "", "review.luck.error")
    return t("review.costly_line", locale, name=_name(shown, d.seat, locale),
             played=_option_text(d.played.action, locale), best=_option_text(d.best.action, locale),
             loss=f"{d.loss:.1f}", label=t(f"review.label.{d.label or 'none'}", locale), luck=t(luck, locale))


def overview_payload(shown: ReviewShown, locale: str, seat: int = EVERYONE) -> Payload:
    """Step 0: accuracy, the costliest decisions in words and the picture (see the module)."""
    review = shown.review
    focus = None if seat == EVERYONE else seat
    lines = [f"**{t('review.accuracy_head', locale)}**"]
    lines += [t("review.accuracy_line", locale, name=_name(shown, s, locale), accuracy=f"{review.accuracy[s]:.1f}")
              for s in range(4) if focus is None or s == focus]
    lines += ["", f"**{t('review.costliest_head', locale)}**"]
    worst = costliest(review, focus)
    lines += [f"{n + 1}. {_costly_line(shown, d, locale)}" for n, d in enumerate(worst)] or [
        t("review.none_costly", locale)]
    lines += ["", f"-# {t('review.legend', locale)}"]
    embed = {"title": t("review.title", locale, hand=shown.hand_no + 1), "color": REVIEW_COLOR,
             "description": clip("\n".join(lines), DESCRIPTION), "image": {"url": f"attachment://{FILENAME}"}}
    payload: Payload = {"content": "", "embeds": [embed], "components": _buttons(shown, 0, seat, locale),
                        "allowed_mentions": NO_MENTIONS, "files": [(FILENAME, review_picture(review, locale, focus))]}
    return orient_payload(payload, locale)


def _decision_lines(shown: ReviewShown, d: Decision, locale: str) -> list[str]:
    name = _name(shown, d.seat, locale)
    action = _option_text(d.played.action, locale)
    if d.forced:
        return [t("review.forced", locale, name=name, action=action)]
    head = t("review.decision", locale, name=f"**{name}**", action=action)
    if d.label is not None:
        head += f" {LABEL_MARKS[d.label]} ({t(f'review.label.{d.label}', locale)}, −{d.loss:.1f})"
    ranked: list[tuple[int, Option]] = sorted(enumerate(d.options), key=lambda io: (-io[1].value, io[0]))
    options = []
    for index, option in ranked:
        text = t("review.option", locale, option=_option_text(option.action, locale), value=_value(option.value))
        options.append(t("review.played", locale, option=text) if index == d.chosen else text)
    return [head, "  " + " · ".join(options)]


def is_overview(review: HandReview, step: int) -> bool:
    """Whether :func:`step_payload` answers ``step`` with the overview (step 0, or a step the review
    does not have), the one step with a picture."""
    return step == 0 or step not in steps_of(review)


def step_payload(shown: ReviewShown, step: int, locale: str, seat: int = EVERYONE) -> Payload:
    """Step ``step`` (1 the bidding, 2 + k trick k): every decision of it (of ``seat`` only, unless
    everyone) with its alternatives and values; step 0 is :func:`overview_payload`."""
    if is_overview(shown.review, step):
        return overview_payload(shown, locale, seat)
    trick = step - 2
    decisions = [d for d in shown.review.decisions
                 if d.trick == trick and (seat == EVERYONE or d.seat == seat)]
    lines = [line for d in decisions for line in _decision_lines(shown, d, locale)] or [t("review.step_none", locale)]
    lines += ["", f"-# {t('review.unit', locale)}"]
    title = (t("review.step_bidding", locale, hand=shown.hand_no + 1) if trick < 0
             else t("review.step_trick", locale, hand=shown.hand_no + 1, trick=trick + 1))
    embed = {"title": title, "color": REVIEW_COLOR, "description": clip("\n".join(lines), DESCRIPTION)}
    payload: Payload = {"content": "", "embeds": [embed], "components": _buttons(shown, step, seat, locale),
                        "allowed_mentions": NO_MENTIONS, "files": []}
    return orient_payload(payload, locale)


def match_accuracy_line(names: tuple[str, str, str, str], accuracy: list[float], locale: str) -> str:
    """``Accuracy this match: Ali 91.2 · Omar 64.0 · …`` for the match's last message."""
    line = " · ".join(f"{display_name(names[s] or str(s + 1), locale)} {accuracy[s]:.1f}"
                      for s in range(min(4, len(accuracy))))
    return t("review.match_accuracy", locale, line=line)


def with_match_accuracy(payload: Payload, line: str, locale: str) -> Payload:
    """The match's last message (``payload``, a rendered table message) with the match's accuracy
    :func:`match_accuracy_line` added under its first embed's text (or its content if it has no embed),
    oriented for a right-to-left ``locale``; ``payload`` itself is left as it was."""
    shown = rtl_lines(line) if is_rtl(locale) else line
    embeds = [dict(e) for e in payload.get("embeds", [])]
    if embeds:
        text = str(embeds[0].get("description") or "")
        room = DESCRIPTION - len(shown) - 2
        embeds[0]["description"] = (clip(text, room) + "\n\n" if text else "") + shown
        return {**payload, "embeds": embeds}
    text = str(payload.get("content") or "")
    return {**payload, "content": clip(text, CONTENT - len(shown) - 1) + "\n" + shown if text else shown}


def last_reviewable(sheet: MatchSummary) -> int | None:
    """The newest hand of the match so far that was played out and scored (R7), so has decisions to review
    (None: none yet). A hand in progress is never one: its score is not known."""
    return next((i for i in range(len(sheet.hands) - 1, -1, -1) if sheet.hands[i].scored), None)


def with_review_button(payload: Payload, table_id: int, sheet: MatchSummary, locale: str) -> Payload:
    """A quick-match player's one DM message (it shows every hand in turn, no message per hand) with
    "Review hand N" for the newest finished hand (:func:`last_reviewable`) after its own buttons, in a row of its
    own, else (five rows already) in their last row if it has room; unchanged when no hand is finished yet or
    there is no room."""
    hand = last_reviewable(sheet)
    if hand is None:
        return payload
    review = button(t("button.review_hand", locale, n=hand + 1), ReviewId(str(table_id), hand).encode(), SECONDARY)
    rows_now = [dict(r) for r in payload.get("components", [])]
    if len(rows_now) < ROWS:
        rows_now.append({"type": 1, "components": [review]})
    elif len(rows_now[-1].get("components", [])) < BUTTONS_PER_ROW:
        rows_now[-1]["components"] = [*rows_now[-1]["components"], review]
    else:
        return payload
    return {**payload, "components": rows_now}
