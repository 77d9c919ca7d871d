"""The table message's "Open table" button: only when the bot serves the Activity."""

from baloot.render.custom_ids import decode_table_id
from baloot.render.model import RenderInfo
from baloot.render.table import my_hand_components


def test_open_table_button_only_with_the_activity() -> None:
    plain = my_hand_components(RenderInfo(table_id="7"), "en")
    assert [b["custom_id"] for b in plain[0]["components"]] == ["bl:7:mine"]
    rows = my_hand_components(RenderInfo(table_id="7", activity=True), "ar")
    buttons = rows[0]["components"]
    assert [decode_table_id(b["custom_id"]) for b in buttons] == [("7", "mine"), ("7", "open")]
    assert buttons[1]["label"] == "افتح الطاولة"
