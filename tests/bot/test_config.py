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


def test_without_shard_settings_one_process_runs_every_shard(tmp_path: Path) -> None:
    config = Config.from_env({}, dotenv_path=tmp_path / "x")
    assert config.shard_count is None
    assert config.shard_ids is None


@pytest.mark.parametrize(
    ("ids", "expected"),
    [("0", (0,)), ("1", (1,)), ("0,1", (0, 1)), ("0-3", (0, 1, 2, 3)), (" 4 , 0-1 ", (0, 1, 4))],
)
def test_shard_ids_are_numbers_and_ranges(
    tmp_path: Path, ids: str, expected: tuple[int, ...]
) -> None:
    env = {"REEL_SHARD_COUNT": "8", "REEL_SHARD_IDS": ids}
    config = Config.from_env(env, dotenv_path=tmp_path / "x")
    assert config.shard_count == 8
    assert config.shard_ids == expected
    assert "shard_ids=" in repr(config)


def test_a_shard_count_alone_means_every_shard_in_this_process(tmp_path: Path) -> None:
    config = Config.from_env({"REEL_SHARD_COUNT": "2"}, dotenv_path=tmp_path / "x")
    assert (config.shard_count, config.shard_ids) == (2, None)


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"REEL_SHARD_COUNT": "0"}, "REEL_SHARD_COUNT must be a whole number"),
        ({"REEL_SHARD_COUNT": "-2"}, "REEL_SHARD_COUNT must be a whole number"),
        ({"REEL_SHARD_COUNT": "two"}, "REEL_SHARD_COUNT must be a whole number"),
        ({"REEL_SHARD_IDS": "0"}, "REEL_SHARD_IDS needs REEL_SHARD_COUNT"),
        ({"REEL_SHARD_COUNT": "2", "REEL_SHARD_IDS": "2"}, "shard 2 does not exist"),
        ({"REEL_SHARD_COUNT": "4", "REEL_SHARD_IDS": "0-4"}, "numbered 0 to 3"),
        ({"REEL_SHARD_COUNT": "4", "REEL_SHARD_IDS": "3-1"}, "ranges like 0,1 or 0-3"),
        ({"REEL_SHARD_COUNT": "4", "REEL_SHARD_IDS": "0,,1"}, "ranges like 0,1 or 0-3"),
        ({"REEL_SHARD_COUNT": "4", "REEL_SHARD_IDS": "a-b"}, "ranges like 0,1 or 0-3"),
        ({"REEL_SHARD_COUNT": "4", "REEL_SHARD_IDS": "0-2,1"}, "names a shard twice"),
    ],
)
def test_a_bad_shard_setting_is_refused_with_the_reason(
    tmp_path: Path, env: dict[str, str], says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        Config.from_env(env, dotenv_path=tmp_path / "x")


def test_the_activitys_settings_are_read_and_the_secrets_never_shown(tmp_path: Path) -> None:
    env = {
        "DISCORD_CLIENT_ID": "1234567890",
        "DISCORD_CLIENT_SECRET": "client-secret-value",
        "REEL_SESSION_SECRET": "k" * 40,
        "REEL_ACTIVITY_MOCK": "1",
        "REEL_WEB_PUBLIC_URL": "https://reel.example.org/",
    }
    config = Config.from_env(env, tmp_path / "none.env")
    assert config.discord_client_id == "1234567890"
    assert config.discord_client_secret == "client-secret-value"
    assert config.session_secret == "k" * 40 and config.activity_mock is True
    assert config.web_public_url == "https://reel.example.org"
    shown = repr(config)
    assert "client-secret-value" not in shown and "k" * 40 not in shown
    assert "discord_client_secret=<set>" in shown and "session_secret=<set>" in shown
    unset = Config.from_env({}, tmp_path / "none.env")
    assert (unset.discord_client_id, unset.session_secret, unset.activity_mock) == (
        None,
        None,
        False,
    )


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("DISCORD_CLIENT_ID", "my-app", "application's id"),
        ("REEL_SESSION_SECRET", "short", "32 characters at least (it has 5)"),
        ("REEL_ACTIVITY_MOCK", "maybe", "1 or 0"),
        ("REEL_WEB_PUBLIC_URL", "reel.example.org", "http"),
    ],
)
def test_a_bad_activity_setting_names_itself(
    tmp_path: Path, name: str, value: str, words: str
) -> None:
    with pytest.raises(ConfigError, match=name) as refused:
        Config.from_env({name: value}, tmp_path / "none.env")
    assert words in str(refused.value)


def test_the_hint_deadline_is_read_in_seconds(tmp_path: Path) -> None:
    assert Config.from_env({}, dotenv_path=tmp_path / "x").hint_deadline is None
    config = Config.from_env({"REEL_HINT_DEADLINE": " 7.5 "}, dotenv_path=tmp_path / "x")
    assert config.hint_deadline == 7.5 and "hint_deadline=7.5" in repr(config)


@pytest.mark.parametrize("value", ["soon", "0", "-2", "0.1", "601", "nan", "inf"])
def test_a_bad_hint_deadline_is_refused_with_its_bounds(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match=r"REEL_HINT_DEADLINE must be a number of seconds"):
        Config.from_env({"REEL_HINT_DEADLINE": value}, dotenv_path=tmp_path / "x")
