"""The message catalog: both languages complete and consistent, keys used in code exist."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from discord import Locale
from discord.enums import try_enum

from baloot.i18n import CatalogError, catalog, has_key, keys, placeholders, resolve_locale, t
from baloot.i18n.ar import AR
from baloot.i18n.en import EN

ROOT = Path(__file__).resolve().parents[2]


def test_both_catalogs_hold_exactly_the_same_keys() -> None:
    assert set(EN) == set(AR)
    assert len(EN) > 250


@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders_and_no_stray_braces(key: str) -> None:
    assert placeholders(EN[key]) == placeholders(AR[key]), key
    for text in (EN[key], AR[key]):
        assert text.strip(), key
        # Every brace is part of a {name} placeholder: no literal braces.
        assert re.sub(r"\{[a-z_]+\}", "", text).count("{") == 0, key
        assert re.sub(r"\{[a-z_]+\}", "", text).count("}") == 0, key


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("ar", "ar"),
        ("ar-SA", "ar"),
        ("AR_eg", "ar"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("arabic", "en"),
        (Locale.american_english, "en"),
        (try_enum(Locale, "ar"), "ar"),  # discord.py 2.7.1 has no Locale.arabic: an unknown proxy
    ],
)
def test_resolve_locale(raw: object, expected: str) -> None:
    assert resolve_locale(raw) == expected
    assert resolve_locale(raw) == expected  # again, as remembered


def test_resolving_remembers_a_bounded_number_of_locales() -> None:
    for n in range(1000):
        assert resolve_locale(f"ar-{n}") == "ar" and resolve_locale(f"xx-{n}") == "en"
    module = importlib.import_module("baloot.i18n.catalog")  # the package's ``catalog`` is the function
    assert len(module._RESOLVED) <= module._RESOLVED_LIMIT


def test_lookup_fills_parameters_and_fails_loudly() -> None:
    assert t("table.title", "en", n=3) == "Baloot — hand 3"
    assert t("table.title", "ar-SA", n=3) == "بلوت — الجولة 3"
    with pytest.raises(CatalogError):
        t("no.such.key", "en")
    with pytest.raises(CatalogError):
        t("table.title", "en")  # needs n
    with pytest.raises(CatalogError):
        t("table.title", "en", m=1)
    assert catalog("ar-SA") is AR


GAME_WORDS = {
    "contract.sun": "صن",
    "contract.hokum": "حكم",
    "bid.ashkal": "أشكل",
    "bid.pass": "بس",
    "double.double": "دبل",
    "double.triple": "ثري",
    "double.four_open": "فور",
    "double.gahwa": "قهوة",
    "project.sira": "سرا",
    "project.fifty": "خمسين",
    "project.hundred": "مية",
    "project.four_hundred": "أربعمية",
    "baloot": "بلوت",
    "kaboot": "كبوت",
    "team.us": "لنا",
    "team.them": "لهم",
}


@pytest.mark.parametrize(("key", "word"), sorted(GAME_WORDS.items()))
def test_arabic_uses_the_games_own_words(key: str, word: str) -> None:
    assert word in AR[key]


def test_arabic_texts_are_arabic() -> None:
    arabic = re.compile(r"[\u0600-\u06FF]")
    untranslated = [
        k for k in EN
        if arabic.search(AR[k]) is None
        and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[a-z_]+\}", "", EN[k]))
        and not k.startswith("rules.values")
    ]
    assert untranslated == []


NAME_RE = re.compile(r"^[-_'\w]{1,32}$")


@pytest.mark.parametrize("key", sorted(k for k in EN if k.startswith(("cmd.", "opt.")) and k.endswith(".name")))
def test_command_and_option_names_are_valid_for_discord(key: str) -> None:
    for text in (EN[key], AR[key]):
        assert NAME_RE.match(text), (key, text)
        assert text == text.lower(), (key, text)
        assert not re.search(r"[\u064B-\u065F]", text), "no Arabic diacritics in names"


@pytest.mark.parametrize("key", sorted(k for k in EN if k.startswith(("cmd.", "opt.", "choice."))))
def test_command_descriptions_and_choices_fit(key: str) -> None:
    for text in (EN[key], AR[key]):
        assert 1 <= len(text) <= 100, (key, len(text))


def test_option_names_are_unique_within_a_language() -> None:
    for cat in (EN, AR):
        names = [v for k, v in cat.items() if k.startswith("opt.") and k.endswith(".name")]
        assert len(names) == len(set(names))


def test_rules_fields_fit_an_embed_field() -> None:
    for cat in (EN, AR):
        for key, text in cat.items():
            if key.startswith("rules.") and key.endswith(".value"):
                assert len(text) <= 1024, key
            if key.startswith("rules.") and key.endswith(".name"):
                assert len(text) <= 256, key


def _code_files() -> list[Path]:
    return [*sorted((ROOT / "baloot" / "render").glob("*.py")), ROOT / "baloot" / "i18n" / "errors.py"]


NAMESPACES = {k.split(".")[0] for k in EN}


def test_every_key_written_in_code_exists() -> None:
    """Every string literal in the render code that looks like a key is one.

    Literal prefixes (``"suit."`` in ``f"suit.{letter}"``) must start some key.
    """
    files = _code_files()
    checked = 0
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            text = node.value
            head = text.split(".")[0]
            if head not in NAMESPACES or "." not in text or " " in text:
                continue
            checked += 1
            if text.endswith("."):
                assert any(k.startswith(text) for k in keys()), (path.name, text)
            else:
                assert has_key(text), (path.name, text)
    assert checked > 120
