"""End to end: a player presses the private Sawa button (R12); the hand ends at once, the table
message shows the claim with the claimant's cards, and the claim is stored in the record."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import Button, Player, contract_policy, open_table

from baloot.engine.cards import ALL_CARDS, iter_bits
from baloot.engine.records import match_from_record
from baloot.render.text import card_text


async def test_a_claim_through_the_private_button(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    sun = contract_policy("sun")
    claims: list[Button] = []

    def claim_when_offered(player: Player, buttons: list[Button]) -> Button:
        sawa = [b for b in buttons if b.code == "w"]
        if sawa:
            assert sawa[0].label == "Sawa (claim the rest)" and sawa[0].seat == player.seat
            claims.append(sawa[0])
            return sawa[0]
        return sun(player, buttons)

    for _ in range(8):
        await table.play_hand(claim_when_offered)
        if claims:
            break
    assert claims, "no claim was offered in eight Sun hands"
    claim = claims[0]
    hand_no = claim.version[0]

    record = table.record()
    actions = record["hands"][hand_no]["actions"]
    assert actions[-1] == {"seat": claim.seat, "type": "sawa"} and len(actions) == claim.version[1] + 1
    hand = match_from_record(record).hands[hand_no]
    assert hand.finished and hand.sawa_by == claim.seat
    shown = [card_text(ALL_CARDS[i], "en") for i in iter_bits(hand.hands[claim.seat])]

    def result_message() -> object:
        # The hand's message at its end: compact, with its "Details" button.
        for message in table.table_messages():
            if f"hand {hand_no + 1}" in message.embeds[0]["title"] and any(
                    c.get("custom_id", "").endswith(f":result:{hand_no}")
                    for row in message.components for c in row["components"]):
                return message
        return None

    message = await discord_env.wait_for(result_message)
    result = message.embeds[0]  # type: ignore[attr-defined]
    assert result["title"] == f"Baloot — hand {hand_no + 1}"
    sawa = result["fields"][0]
    assert sawa["name"] == "Sawa" and table.by_seat(claim.seat).name in sawa["value"]
    assert all(card in sawa["value"] for card in shown)
    table.assert_private()
    table.assert_clean_log()
