"""Localizing slash commands in Arabic (the only module of ``baloot.i18n`` that imports discord).

Cogs write command texts as :func:`cmd_str` values, which carry their catalog
key in ``locale_str`` extras and default to the English text::

    from cogs.translator import CatalogTranslator, LocalizedCommandTree, cmd_str

    bot = commands.Bot(..., tree_cls=LocalizedCommandTree)
    group = app_commands.Group(name=cmd_str("cmd.baloot.name"), description=cmd_str("cmd.baloot.desc"))

    @group.command(name=cmd_str("cmd.join.name"), description=cmd_str("cmd.join.desc"))
    @app_commands.rename(seat=cmd_str("opt.seat.name"))
    @app_commands.describe(seat=cmd_str("opt.seat.desc"))
    async def join(...): ...

    # in setup_hook, before tree.sync():
    await bot.tree.set_translator(CatalogTranslator())

A catch in discord.py 2.7.1: its ``Locale`` enum has no Arabic (Discord's API
does: ``"ar"``), and ``get_translated_payload`` asks the translator only for
the enum's members, so a translator alone never produces Arabic. Hence
:class:`LocalizedCommandTree`, whose ``sync`` adds the ``"ar"`` entries with
:func:`add_arabic_localizations` before uploading. :class:`CatalogTranslator`
answers Arabic whenever it is asked (for a discord.py that knows ``ar``) and
``None`` otherwise, so Discord shows the English defaults elsewhere.
"""

from __future__ import annotations

from typing import Any, Final

from discord import Locale
from discord.abc import Snowflake
from discord.app_commands import (
    AppCommand,
    CommandSyncFailure,
    CommandTree,
    MissingApplicationID,
    TranslationContextTypes,
    Translator,
    locale_str,
)
from discord.errors import HTTPException

from baloot.i18n.ar import AR
from baloot.i18n.catalog import has_key, resolve_locale, t
from baloot.i18n.en import EN

EXTRAS_KEY: Final = "key"
"""The ``locale_str`` extras entry holding the catalog key."""
ARABIC: Final = "ar"
"""Discord's locale code for Arabic."""
_COMMAND_PREFIXES: Final = ("cmd.", "opt.", "choice.")


def cmd_str(key: str) -> locale_str:
    """A ``locale_str`` whose default is the English text of ``key``."""
    return locale_str(t(key, "en"), **{EXTRAS_KEY: key})


class CatalogTranslator(Translator):
    """Translates ``locale_str`` values that carry a catalog key into Arabic."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        key = string.extras.get(EXTRAS_KEY)
        if not isinstance(key, str) or not has_key(key):
            return None
        if resolve_locale(locale) != ARABIC:
            return None
        return t(key, ARABIC)


SUBGROUPS: Final = ("tournament",)
"""Sub-groups of ``/baloot`` whose commands' names are read with the sub-group's (``cmd.tournament.create.name``
is "create" like ``cmd.create.name``, but not the same Arabic): :data:`QUALIFIED_NAMES`."""


def qualified_key(key: str) -> bool:
    """Whether ``key`` names a command of a sub-group (its Arabic is looked up with the sub-group's name)."""
    return any(key.startswith(f"cmd.{group}.") and key.endswith(".name") and key != f"cmd.{group}.name"
               for group in SUBGROUPS)


def _english_to_arabic() -> dict[str, str]:
    table: dict[str, str] = {}
    for key, english in EN.items():
        if key.startswith(_COMMAND_PREFIXES) and not qualified_key(key):
            table.setdefault(english, AR[key])
    return table


COMMAND_TEXTS: Final = _english_to_arabic()
"""English command, option and choice texts to their Arabic (a test checks it is unambiguous)."""
QUALIFIED_NAMES: Final = {(EN[f"cmd.{key.split('.')[1]}.name"], english): AR[key]
                          for key, english in EN.items() if qualified_key(key)}
"""(sub-group's English name, command's English name) to the command's Arabic name."""


def add_arabic_localizations(payload: dict[str, Any], parent: str | None = None) -> dict[str, Any]:
    """Fill ``name_localizations["ar"]`` and ``description_localizations["ar"]`` of a
    command payload (Discord's JSON, options and choices included) from the catalog.

    Texts not from the catalog are left alone. Returns the same dict, changed.
    """
    for field in ("name", "description"):
        arabic = COMMAND_TEXTS.get(payload.get(field, ""))
        if field == "name" and parent is not None:
            arabic = QUALIFIED_NAMES.get((parent, payload.get("name", "")), arabic)
        if arabic is not None:
            localizations = payload.get(f"{field}_localizations") or {}
            localizations[ARABIC] = arabic
            payload[f"{field}_localizations"] = localizations
    for option in payload.get("options") or ():
        add_arabic_localizations(option, payload.get("name"))
    for choice in payload.get("choices") or ():
        add_arabic_localizations(choice)
    return payload


class LocalizedCommandTree(CommandTree):
    """A ``CommandTree`` whose ``sync`` also uploads the Arabic localizations."""

    async def sync(self, *, guild: Snowflake | None = None) -> list[AppCommand]:
        """Like ``CommandTree.sync`` (discord.py 2.7.1), plus :func:`add_arabic_localizations`."""
        if self.client.application_id is None:
            raise MissingApplicationID
        commands = self._get_all_commands(guild=guild)
        translator = self.translator
        if translator:
            payload = [await command.get_translated_payload(self, translator) for command in commands]
        else:
            payload = [command.to_dict(self) for command in commands]
        payload = [add_arabic_localizations(p) for p in payload]
        try:
            if guild is None:
                data = await self._http.bulk_upsert_global_commands(self.client.application_id, payload=payload)
            else:
                data = await self._http.bulk_upsert_guild_commands(
                    self.client.application_id, guild.id, payload=payload
                )
        except HTTPException as e:
            if e.status == 400 and e.code == 50035:
                raise CommandSyncFailure(e, commands) from None
            raise
        return [AppCommand(data=d, state=self._state) for d in data]
