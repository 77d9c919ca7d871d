"""Plural forms (CLDR) for English and Arabic, and counted phrases ("1 trick", "٣ أكلات").

CLDR's cardinal plural rules for integers (unicode.org/cldr, "Language Plural Rules"):

- English: ``one`` for 1, ``other`` otherwise;
- Arabic: ``zero`` for 0, ``one`` for 1, ``two`` for 2, ``few`` when n % 100 is 3–10,
  ``many`` when n % 100 is 11–99, ``other`` otherwise (100, 101, 102, ...).

The phrases are kept here, not in the flat catalogs, because Arabic needs up to
six forms where English needs two; :func:`count` picks the form.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")


def plural_category(n: int, locale: str) -> str:
    """The CLDR plural category of the integer ``n`` in ``locale`` (``en`` or ``ar``)."""
    n = abs(int(n))
    if locale == "ar":
        if n == 0:
            return "zero"
        if n == 1:
            return "one"
        if n == 2:
            return "two"
        if 3 <= n % 100 <= 10:
            return "few"
        if 11 <= n % 100 <= 99:
            return "many"
        return "other"
    return "one" if n == 1 else "other"


_EN: Final[Mapping[str, Mapping[str, str]]] = {
    "tricks": {"one": "{n} trick", "other": "{n} tricks"},
    "last_tricks": {"one": "the last trick", "other": "the last {n} tricks"},  # R12: what a Sawa claims
    "points": {"one": "{n} point", "other": "{n} points"},
    "seconds": {"one": "{n} second", "other": "{n} seconds"},
    "hands": {"one": "{n} hand", "other": "{n} hands"},
    "games": {"one": "{n} game", "other": "{n} games"},
    "matches": {"one": "{n} match", "other": "{n} matches"},
    "players": {"one": "{n} player", "other": "{n} players"},
    "tournaments": {"one": "{n} tournament", "other": "{n} tournaments"},
    "trumps": {"one": "{n} trump", "other": "{n} trumps"},  # R12: trumps still out against a Sawa
}
# Arabic: 1 and 2 are said with the noun alone (أكلة، أكلتان); 3–10 take the plural,
# 11–99 and 100+ the singular (accusative/genitive), 0 the singular after لا-less digits.
_AR: Final[Mapping[str, Mapping[str, str]]] = {
    "tricks": {"zero": "{n} أكلة", "one": "أكلة واحدة", "two": "أكلتان", "few": "{n} أكلات",
               "many": "{n} أكلة", "other": "{n} أكلة"},
    # "على آخر …" (after a preposition: the genitive dual أكلتين).
    "last_tricks": {"zero": "آخر {n} أكلة", "one": "الأكلة الأخيرة", "two": "آخر أكلتين", "few": "آخر {n} أكلات",
                    "many": "آخر {n} أكلة", "other": "آخر {n} أكلة"},
    "points": {"zero": "{n} نقطة", "one": "نقطة واحدة", "two": "نقطتان", "few": "{n} نقاط",
               "many": "{n} نقطة", "other": "{n} نقطة"},
    "seconds": {"zero": "{n} ثانية", "one": "ثانية واحدة", "two": "ثانيتان", "few": "{n} ثوانٍ",
                "many": "{n} ثانية", "other": "{n} ثانية"},
    "hands": {"zero": "{n} جولة", "one": "جولة واحدة", "two": "جولتان", "few": "{n} جولات",
              "many": "{n} جولة", "other": "{n} جولة"},
    "games": {"zero": "{n} صكة", "one": "صكة واحدة", "two": "صكتان", "few": "{n} صكات",
              "many": "{n} صكة", "other": "{n} صكة"},
    # A match is a صكة, as at the table, not مباراة.
    "matches": {"zero": "{n} صكة", "one": "صكة واحدة", "two": "صكتان", "few": "{n} صكات",
                "many": "{n} صكة", "other": "{n} صكة"},
    "players": {"zero": "{n} لاعب", "one": "لاعب واحد", "two": "لاعبان", "few": "{n} لاعبين",
                "many": "{n} لاعب", "other": "{n} لاعب"},
    "tournaments": {"zero": "{n} بطولة", "one": "بطولة واحدة", "two": "بطولتان", "few": "{n} بطولات",
                    "many": "{n} بطولة", "other": "{n} بطولة"},
    "trumps": {"zero": "{n} ورقة حكم", "one": "ورقة حكم واحدة", "two": "ورقتا حكم", "few": "{n} أوراق حكم",
               "many": "{n} ورقة حكم", "other": "{n} ورقة حكم"},
}
PHRASES: Final[Mapping[str, Mapping[str, Mapping[str, str]]]] = {"en": _EN, "ar": _AR}


def count(word: str, n: int, locale: str) -> str:
    """``n`` ``word`` in ``locale``'s right plural form: ``count("tricks", 1, "en") == "1 trick"``."""
    forms = PHRASES["ar" if locale == "ar" else "en"][word]
    form = forms.get(plural_category(n, locale), forms["other"])
    return form.format(n=n)
