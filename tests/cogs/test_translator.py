"""Slash-command localization: the translator, the payload filler and the tree's sync."""

from __future__ import annotations

from typing import Any

import discord
from discord import Locale, app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation, TranslationContextTypes
from discord.enums import try_enum

from baloot.i18n import t
from baloot.i18n.ar import AR
from baloot.i18n.en import EN
from cogs.translator import (
    COMMAND_TEXTS,
    QUALIFIED_NAMES,
    CatalogTranslator,
    LocalizedCommandTree,
    add_arabic_localizations,
    cmd_str,
    qualified_key,
)

CONTEXT: TranslationContextTypes = TranslationContext(TranslationContextLocation.other, None)


async def test_translator_answers_arabic_only() -> None:
    translator = CatalogTranslator()
    arabic = try_enum(Locale, "ar")
    assert await translator.translate(cmd_str("cmd.join.name"), arabic, CONTEXT) == "انضمام"
    assert await translator.translate(cmd_str("cmd.join.desc"), arabic, CONTEXT) == AR["cmd.join.desc"]
    assert await translator.translate(cmd_str("cmd.join.name"), Locale.american_english, CONTEXT) is None
    assert await translator.translate(cmd_str("cmd.join.name"), Locale.french, CONTEXT) is None
    plain = app_commands.locale_str("join")
    assert await translator.translate(plain, arabic, CONTEXT) is None


def test_cmd_str_defaults_to_english() -> None:
    value = cmd_str("cmd.rules.desc")
    assert str(value) == EN["cmd.rules.desc"]
    assert value.extras == {"key": "cmd.rules.desc"}


def test_english_command_texts_map_to_one_arabic_text_each() -> None:
    seen: dict[str, str] = {}
    for key, english in EN.items():
        if key.startswith(("cmd.", "opt.", "choice.")) and not qualified_key(key):
            assert seen.setdefault(english, AR[key]) == AR[key], f"{english!r} is ambiguous"
    assert seen == COMMAND_TEXTS


def make_group() -> app_commands.Group:
    group = app_commands.Group(name=cmd_str("cmd.baloot.name"), description=cmd_str("cmd.baloot.desc"))

    @group.command(name=cmd_str("cmd.join.name"), description=cmd_str("cmd.join.desc"))
    @app_commands.rename(seat=cmd_str("opt.seat.name"))
    @app_commands.describe(seat=cmd_str("opt.seat.desc"))
    @app_commands.choices(team=[app_commands.Choice(name=cmd_str("choice.team.1"), value=0)])
    async def join(interaction: discord.Interaction, seat: int | None = None, team: int | None = None) -> None:
        """Unused."""

    return group


def test_add_arabic_localizations_walks_options_and_choices() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)
    payload = add_arabic_localizations(make_group().to_dict(tree))
    assert payload["name"] == "baloot"
    assert payload["name_localizations"]["ar"] == "بلوت"
    sub = payload["options"][0]
    assert sub["name_localizations"]["ar"] == t("cmd.join.name", "ar")
    assert sub["description_localizations"]["ar"] == t("cmd.join.desc", "ar")
    seat = next(o for o in sub["options"] if o["name"] == "seat")
    assert seat["name_localizations"]["ar"] == "المقعد"
    team = next(o for o in sub["options"] if o["name"] == "team")
    assert "description_localizations" not in team or "ar" not in team["description_localizations"]
    assert team["choices"][0]["name_localizations"]["ar"] == t("choice.team.1", "ar")


async def test_localized_tree_uploads_arabic() -> None:
    client = discord.Client(intents=discord.Intents.none())
    client._connection.application_id = 1234
    tree = LocalizedCommandTree(client)
    tree.add_command(make_group())
    await tree.set_translator(CatalogTranslator())
    sent: list[Any] = []

    async def fake_upsert(application_id: int, payload: list[Any]) -> list[Any]:
        sent.extend(payload)
        return [dict(p, id="1", application_id="1234", version="1", type=1) for p in payload]

    tree._http.bulk_upsert_global_commands = fake_upsert  # type: ignore[method-assign,assignment]
    synced = await tree.sync()
    assert [c.name for c in synced] == ["baloot"]
    assert sent[0]["name_localizations"] == {"ar": "بلوت"}
    assert sent[0]["options"][0]["name_localizations"]["ar"] == "انضمام"


def test_tournament_commands_have_their_own_arabic_names() -> None:
    """"create" is طاولة_جديدة at the top level but إنشاء under ``tournament``."""
    assert QUALIFIED_NAMES[("tournament", "create")] == AR["cmd.tournament.create.name"]
    payload: dict[str, Any] = {"name": "baloot", "description": EN["cmd.baloot.desc"], "options": [
        {"name": "create", "description": EN["cmd.create.desc"], "type": 1},
        {"name": "tournament", "description": EN["cmd.tournament.desc"], "type": 2, "options": [
            {"name": "create", "description": EN["cmd.tournament.create.desc"], "type": 1}]}]}
    add_arabic_localizations(payload)
    top, group = payload["options"]
    assert top["name_localizations"]["ar"] == AR["cmd.create.name"]
    assert group["name_localizations"]["ar"] == AR["cmd.tournament.name"]
    assert group["options"][0]["name_localizations"]["ar"] == AR["cmd.tournament.create.name"]
