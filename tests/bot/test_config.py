"""Settings from the environment (.env.example documents each one)."""

from pathlib import Path

import pytest

from baloot.review import DEFAULT_SAMPLES, MAX_SAMPLES
from cogs.settings import REVIEW_YIELD_MS_SHARING, ConfigError, default_review_yield_ms, load_settings, usable_cores

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_and_hidden_token() -> None:
    settings = load_settings({"DISCORD_TOKEN": "secret-token-value"})
    assert settings.database_path == Path("data/baloot.db")
    assert settings.database_sync == "FULL"
    assert settings.turn_seconds == 60 and settings.default_language == "en"
    assert "secret-token-value" not in repr(settings)
    assert settings.database_url is None  # SQLite unless DATABASE_URL is set


def test_database_url_selects_postgresql_and_its_password_is_hidden() -> None:
    url = "postgresql://baloot:pg-secret-pw@db.example:5432/baloot"
    settings = load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": f"  {url} "})
    assert settings.database_url == url
    assert "pg-secret-pw" not in repr(settings)
    assert "postgresql://baloot:***@db.example:5432/baloot" in repr(settings)
    assert load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgres://h/db"}).database_url == "postgres://h/db"
    assert load_settings({"DISCORD_TOKEN": "t", "DATABASE_URL": ""}).database_url is None


def test_missing_token_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings({})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("TURN_SECONDS", "abc"),
        ("TURN_SECONDS", "2"),
        ("DEFAULT_LANGUAGE", "fr"),
        ("DATABASE_SYNC", "OFF"),
        ("DEV_GUILD_ID", "x1"),
        ("BOT_DELAY_SECONDS", "-1"),
        ("AI_WORKERS", "99"),
        ("LOG_LEVEL", "LOUD"),
        ("DATABASE_URL", "mysql://user:pw@host/db"),
        ("TABLE_PICTURES", "maybe"),
        ("CARD_COLORS", "3"),
        ("WEB_PORT", "eighty"),
        ("WEB_PORT", "70000"),
        ("PUBLIC_URL", "ftp-host"),
        ("DISCORD_CLIENT_ID", "my-app"),
        ("REVIEW_YIELD_MS", "-1"),
        ("REVIEW_YIELD_MS", "5000"),
        ("REVIEW_SAMPLES", "-5"),
        ("REVIEW_SAMPLES", "2049"),
    ],
)
def test_bad_values_name_the_setting_not_the_value(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name) as err:
        load_settings({"DISCORD_TOKEN": "t", name: value})
    assert value not in str(err.value) or value in name


def test_env_example_documents_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "cogs" / "settings.py").read_text(encoding="utf-8")
    import re

    read = set(re.findall(r'env\.get\("([A-Z_]+)"', source)) | set(re.findall(r'_int\(env, "([A-Z_]+)"', source))
    documented = set(re.findall(r"^([A-Z_]+)=", example, flags=re.M))
    assert read and read <= documented, read - documented


def test_table_pictures_can_be_limited_or_turned_off() -> None:
    """The table message's picture by default; ``all`` adds private views, ``0`` is text only."""
    assert load_settings({"DISCORD_TOKEN": "t"}).table_pictures == "channel"
    assert load_settings({"DISCORD_TOKEN": "t", "TABLE_PICTURES": "1"}).table_pictures == "channel"
    assert load_settings({"DISCORD_TOKEN": "t", "TABLE_PICTURES": "all"}).table_pictures == "all"
    assert load_settings({"DISCORD_TOKEN": "t", "TABLE_PICTURES": "0"}).table_pictures == "off"
    assert "table_pictures='off'" in repr(load_settings({"DISCORD_TOKEN": "t", "TABLE_PICTURES": "off"}))


def test_card_colors_are_red_and_black_unless_the_four_colour_deck_is_asked_for() -> None:
    """CARD_COLORS=4 draws the card emojis from the four-colour deck."""
    assert load_settings({"DISCORD_TOKEN": "t"}).card_colors == 2
    assert load_settings({"DISCORD_TOKEN": "t", "CARD_COLORS": " 4 "}).card_colors == 4


def test_web_table_and_activity_settings_hide_the_client_secret() -> None:
    """No web server unless WEB_PORT is set; the Activity's client secret is never printed."""
    plain = load_settings({"DISCORD_TOKEN": "t"})
    assert plain.web_port is None and plain.client_secret is None and plain.web_host == "127.0.0.1"
    settings = load_settings({"DISCORD_TOKEN": "t", "WEB_PORT": "8080", "WEB_HOST": "0.0.0.0",
                              "PUBLIC_URL": "https://baloot.example.org/", "DISCORD_CLIENT_ID": "123",
                              "DISCORD_CLIENT_SECRET": "oauth-secret-value"})
    assert (settings.web_port, settings.web_host, settings.public_url, settings.client_id) == (
        8080, "0.0.0.0", "https://baloot.example.org", "123")
    assert settings.client_secret == "oauth-secret-value" and "oauth-secret-value" not in repr(settings)
    with pytest.raises(ConfigError, match="WEB_PORT"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_CLIENT_SECRET": "s"})


def test_review_samples_take_the_range_of_the_command_line() -> None:
    """``REVIEW_SAMPLES`` and ``python -m baloot review --samples`` take the same counts (1 to MAX_SAMPLES)."""
    assert load_settings({"DISCORD_TOKEN": "t"}).review_samples == DEFAULT_SAMPLES
    assert load_settings({"DISCORD_TOKEN": "t", "REVIEW_SAMPLES": str(MAX_SAMPLES)}).review_samples == MAX_SAMPLES
    with pytest.raises(ConfigError, match="REVIEW_SAMPLES"):
        load_settings({"DISCORD_TOKEN": "t", "REVIEW_SAMPLES": str(MAX_SAMPLES + 1)})


def test_review_workers_pause_after_interactions_only_where_they_share_the_bots_cores() -> None:
    """``REVIEW_YIELD_MS``: by default the review workers pause after each interaction where the machine has fewer
    cores than the workers plus two (the bot's loop, the rest); set, it is taken as it is (0: never)."""
    assert default_review_yield_ms(1, 2) == REVIEW_YIELD_MS_SHARING > 0
    assert default_review_yield_ms(4, 4) == REVIEW_YIELD_MS_SHARING
    assert default_review_yield_ms(1, 3) == 0 and default_review_yield_ms(4, 16) == 0
    assert default_review_yield_ms(0, 1) == 0  # no review workers: reviews run in the AI's pool, no brake
    cores = usable_cores()
    assert cores >= 1
    for workers in (1, 4):
        settings = load_settings({"DISCORD_TOKEN": "t", "REVIEW_WORKERS": str(workers)})
        assert settings.review_yield_ms == default_review_yield_ms(workers, cores)
    assert load_settings({"DISCORD_TOKEN": "t", "REVIEW_YIELD_MS": "0", "REVIEW_WORKERS": "8"}).review_yield_ms == 0
    assert load_settings({"DISCORD_TOKEN": "t", "REVIEW_YIELD_MS": " 25 "}).review_yield_ms == 25
