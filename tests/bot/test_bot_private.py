"""End to end: closed DMs (play through "My hand"), and each user's language."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import contract_policy, open_table, plain, refused

from baloot.i18n import t

DMS_CLOSED_EN = t("notice.dms_closed", "en")


async def test_closed_dms_play_a_whole_hand_through_my_hand(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, accepts_dms=[True, True, True, False])
    dave = table.players[3]
    # The bot finds out it cannot DM dave when it deals (403, code 50007), and stores it.
    await discord_env.wait_for(lambda: table.query(
        "SELECT dm_closed FROM seats WHERE table_id = ? AND seat = 3", (table.table_id(),))[0][0] == 1)
    mine = await discord_env.wait_for(lambda: next((m for m in table.table_messages() if m.components), None))
    opened = await dave.person.click(mine, "My hand")
    assert opened.response_type == 4 and opened.ephemeral
    assert opened.message is not None and "Your cards" in [f["name"] for f in opened.message.embeds[0]["fields"]]

    steps = await table.play_hand(contract_policy("hokum"))
    assert steps > 8, "the hand was not played out"
    assert dave.presses >= 2, "dave played from his ephemeral view"
    assert dave.person.dms() == []
    told = [m for m in dave.person.ephemerals() if m.content == DMS_CLOSED_EN]
    assert len(told) == 1, "told once, privately"
    for other in table.players[:3]:
        assert not [m for m in other.person.ephemerals() if m.content == DMS_CLOSED_EN]
        assert other.person.dms(), "the others play from their DMs"
    table.assert_private()
    table.assert_clean_log()
    assert table.action_count() == len(table.acted)


async def test_each_user_sees_their_language(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, locales=["ar", "en-US", "en-GB", "ar-SA"])
    alice, bob = table.players[:2]
    # Slash commands carry Arabic names for Arabic clients.
    command = discord_env.find_command("baloot", table.guild)
    assert command is not None and command["name_localizations"]["ar"] == "بلوت"

    # Private replies follow each user's Discord locale.
    assert plain((await alice.person.slash("baloot", "rules", channel=table.channel)).message.embeds[0]["title"]) == (  # type: ignore[union-attr]
        t("rules.title", "ar"))
    assert (await bob.person.slash("baloot", "rules", channel=table.channel)).message.embeds[0]["title"] == (  # type: ignore[union-attr]
        t("rules.title", "en"))
    other = discord_env.create_channel(table.guild, "elsewhere")
    assert refused(await alice.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "ar")
    assert refused(await bob.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "en")

    # DMs: the hand in the reader's language, and only their own.
    def fields(player_index: int) -> list[str]:
        views = table.players[player_index].views()
        return [plain(f["name"]) for m in views for f in m.embeds[0]["fields"]] if views else []

    await discord_env.wait_for(lambda: all(fields(i) for i in range(4)))
    assert "أوراقك" in fields(0) and "أوراقك" in fields(3)
    assert "Your cards" in fields(1) and "Your cards" in fields(2)

    # The channel follows the server (English here) until an admin sets the table's language.
    message = await discord_env.wait_for(lambda: next((m for m in table.table_messages() if m.components), None))
    assert message.embeds[0]["title"] == t("table.title", "en", n=1)
    assert message.components[0]["components"][0]["label"] == "My hand"
    set_ar = await alice.person.slash("baloot", "language", channel=table.channel, language="ar")
    assert set_ar.ephemeral and set_ar.message is not None
    assert plain(set_ar.message.content) == t("notice.language_set", "ar")
    await discord_env.wait_for(lambda: plain(message.embeds[0]["title"]) == t("table.title", "ar", n=1))
    assert message.components[0]["components"][0]["label"] == t("button.my_hand", "ar")
    # at an Arabic table, errors and private views follow the table, whatever the app's language.
    assert refused(await bob.person.slash("baloot", "language", channel=table.channel, language="en",
                                          scope="server")) == t("error.admin_only", "ar")
    await discord_env.wait_for(lambda: "أوراقك" in fields(1))  # their private view was redrawn
    hand = await bob.person.slash("baloot", "hand", channel=table.channel)
    assert hand.message is not None and plain(hand.message.embeds[0]["fields"][0]["name"]) == "أوراقك"
    server = await alice.person.slash("baloot", "language", channel=table.channel, language="ar", scope="server")
    assert server.ephemeral and server.message is not None
    assert plain(server.message.content) == t("notice.language_set", "ar")
    assert table.query("SELECT language FROM guild_settings WHERE guild_id = ?", (table.guild.id,))[0][0] == "ar"

    # A player's own choice wins over the table's (scope "me"), is stored, and refreshes their view.
    mine = await bob.person.slash("baloot", "language", channel=table.channel, language="en", scope="me")
    assert mine.message is not None and plain(mine.message.content) == t("notice.language_set", "en")
    stored = table.query("SELECT language FROM players WHERE user_id = ?", (bob.person.id,))
    assert [tuple(r) for r in stored] == [("en",)]
    assert refused(await bob.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "en")
    await discord_env.wait_for(lambda: "Your cards" in fields(1))
    assert refused(await alice.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "ar")


async def test_a_stale_interaction_token_falls_back_to_the_dm(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    policy = contract_policy("sun")
    turn = await table.wait_turn()
    assert turn is not None
    player, buttons = turn
    pressed = await table.press(player, policy(player, buttons))
    # Later refreshes of this player's view would go through that press's token: make it expire.
    discord_env.age_interaction(pressed.interaction, 901)
    calls = discord_env.calls
    mark = calls.mark()
    others = 0
    while True:
        turn = await table.wait_turn()
        assert turn is not None
        if turn[0] is player and others:
            break
        others += turn[0] is not player
        again = await table.press(turn[0], policy(*turn))
        if turn[0] is player:  # still their turn (Sun: the first bidder leads): age this press instead
            discord_env.age_interaction(again.interaction, 901)
    webhook_edit = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert calls.count(webhook_edit, status=401, since=mark) == 1
    assert calls.count("PATCH /channels/{channel_id}/messages/{message_id}", kind="bot", since=mark) >= 1
    dm = turn[1][0].message
    assert dm.channel_id == player.person.dm_channel.id and dm.edits >= 2
    await table.press(player, policy(*turn))  # the DM's buttons work as before
    assert table.action_count() == len(table.acted)


async def test_a_servers_language_holds_after_a_restart_before_any_table(discord_env: DiscordEnv,
                                                                        tmp_path: Path) -> None:
    """A server set to Arabic answers in Arabic in a channel without a table right after a restart: its
    setting is read at start-up, not when one of its tables is next created or resumed."""
    table = await open_table(discord_env, tmp_path, start=False)
    alice, bob = table.players[0], table.players[1]
    assert alice.person.id != bob.person.id
    admin = discord_env.create_user("boss").join(table.guild, admin=True)
    server = await admin.slash("baloot", "language", channel=table.channel, language="ar", scope="server")
    assert server.ephemeral and server.message is not None
    other = discord_env.create_channel(table.guild, "quiet")
    assert refused(await bob.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "ar")
    ended = await admin.slash("baloot", "end", channel=table.channel)  # no table left to resume in this server
    assert ended.message is not None and table.status() != "open"
    await table.bot.restart()
    # bob's Discord app is in English and he chose nothing: the server's setting decides
    assert refused(await bob.person.slash("baloot", "hand", channel=other)) == t("error.no_table", "ar")
    rules = await bob.person.slash("baloot", "rules", channel=other)
    assert rules.message is not None and plain(rules.message.embeds[0]["title"]) == plain(t("rules.title", "ar"))
