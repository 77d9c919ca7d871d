"""Payload ``files`` as discord.py arguments: uploaded on send, replacing on edit."""

from __future__ import annotations

import pytest

from baloot.render import Payload
from baloot.render.picture import FILENAME, with_picture
from cogs.transport.payloads import attach_picture, edit_args, send_args

BASE: Payload = {"content": "", "embeds": [{"title": "Hand 1"}], "components": [], "allowed_mentions": {"parse": []}}


def test_files_are_uploaded_on_send_and_replace_the_old_ones_on_edit() -> None:
    payload = with_picture(BASE, b"\x89PNG data")
    assert payload["embeds"][0]["image"] == {"url": f"attachment://{FILENAME}"}
    assert "image" not in BASE["embeds"][0]  # the rendered payload is not changed in place
    sent = send_args(payload)
    assert [f.filename for f in sent["files"]] == [FILENAME]
    assert sent["files"][0].fp.read() == b"\x89PNG data"
    edited = edit_args(payload)
    assert [f.filename for f in edited["attachments"]] == [FILENAME]
    assert "files" not in edited


def test_without_files_the_attachments_are_left_alone() -> None:
    assert "files" not in send_args(BASE)
    assert "attachments" not in edit_args(BASE)


def test_a_picture_that_fails_to_draw_leaves_text_and_removes_the_old_one(caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> bytes:
        raise RuntimeError("no picture today")

    payload = attach_picture(BASE, broken)
    assert payload["files"] == [] and "image" not in payload["embeds"][0]
    assert edit_args(payload)["attachments"] == []  # the previous picture goes
    assert "could not draw the table picture" in caplog.text
