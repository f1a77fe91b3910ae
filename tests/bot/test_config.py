"""Settings come from the environment first, then .env, then defaults."""

from pathlib import Path

import pytest

from bot.config import DEFAULT_DB_PATH, Config, ConfigError


def test_defaults_without_any_setting(tmp_path: Path) -> None:
    config = Config.from_env({}, dotenv_path=tmp_path / "missing.env")
    assert config.discord_token is None
    assert config.db_path == DEFAULT_DB_PATH
    assert config.dev_guild_id is None
    assert config.log_level == "INFO"


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("DISCORD_TOKEN=from-file\nREEL_DB=file.db\nREEL_DEV_GUILD=123\n")
    config = Config.from_env({"REEL_DB": "env.db"}, dotenv_path=dotenv)
    assert config.discord_token == "from-file"
    assert config.db_path == Path("env.db")
    assert config.dev_guild_id == 123


def test_repr_never_shows_the_token(tmp_path: Path) -> None:
    config = Config.from_env({"DISCORD_TOKEN": "secret-token-value"}, dotenv_path=tmp_path / "x")
    assert "secret-token-value" not in repr(config)
    assert "secret-token-value" not in str(config)


@pytest.mark.parametrize(
    ("name", "value"), [("REEL_DEV_GUILD", "my-server"), ("REEL_LOG_LEVEL", "LOUD")]
)
def test_a_bad_setting_names_itself(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Config.from_env({name: value}, dotenv_path=tmp_path / "x")


def test_discord_endpoints_default_to_discords_own(tmp_path: Path) -> None:
    config = Config.from_env({"REEL_DISCORD_API": " "}, dotenv_path=tmp_path / "x")
    assert config.discord_api is None
    assert config.discord_gateway is None


def test_discord_endpoints_are_read(tmp_path: Path) -> None:
    config = Config.from_env(
        {
            "REEL_DISCORD_API": "http://127.0.0.1:8080/api/v10/",
            "REEL_DISCORD_GATEWAY": "wss://gateway.example.org",
        },
        dotenv_path=tmp_path / "x",
    )
    assert config.discord_api == "http://127.0.0.1:8080/api/v10"  # no trailing slash
    assert config.discord_gateway == "wss://gateway.example.org"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("REEL_DISCORD_API", "127.0.0.1:8080/api/v10"),  # no scheme
        ("REEL_DISCORD_API", "ws://127.0.0.1:8080/api/v10"),  # a websocket is not REST
        ("REEL_DISCORD_API", "http:///api/v10"),  # no host
        ("REEL_DISCORD_API", "http://127.0.0.1:port/api/v10"),  # not a port
        ("REEL_DISCORD_GATEWAY", "https://gateway.discord.gg"),  # REST is not a websocket
        ("REEL_DISCORD_GATEWAY", "gateway.discord.gg"),
    ],
)
def test_a_bad_discord_endpoint_names_itself(tmp_path: Path, name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Config.from_env({name: value}, dotenv_path=tmp_path / "x")
