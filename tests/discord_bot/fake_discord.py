"""A fake Discord for end-to-end tests: REST v10 and the gateway websocket on 127.0.0.1.

The bot under test is the real discord.py client, started with ``bot.start(token)``
after :meth:`FakeDiscord.patched` has pointed ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at this server. Tests then act
as users (:meth:`FakeDiscord.slash`, :meth:`FakeDiscord.autocomplete`,
:meth:`FakeDiscord.click`), which dispatches ``INTERACTION_CREATE`` over the
websocket, and read what the bot posted back over HTTP from the message store.

Discord's limits are enforced the way Discord enforces them (a 400 with a
Discord-like error body, a 404 "Unknown interaction" for a late first response),
and every breach is also recorded as a :class:`Violation`, so that a test fixture
can fail at teardown even when the bot swallowed the HTTP error.

Example::

    async with FakeDiscord() as fake:
        with fake.patched():
            async with fake.running(make_bot()):  # bot.start("any-token"), until on_ready
                alice = fake.user("alice")
                result = await fake.slash(alice, "reel", sub="move", options={"from": "r3"})
                board = await result.wait_message()
                click = await fake.click(alice, board, label="Deal")
                assert click.callback_type == 7
    fake.assert_no_violations()

In pytest, the ``fake_discord`` and ``start_bot`` fixtures of conftest.py do this.

Discord's own faults can be armed too (:meth:`FakeDiscord.fail`, :meth:`FakeDiscord.hang`,
:meth:`FakeDiscord.drop_gateway`): a 429 with Discord's body and headers, a 5xx, a REST
call that hangs, the gateway cut under the bot. Every REST request that arrives is
recorded as an :class:`Attempt` (when, what, the status answered), so a test can check
that the client waited ``retry_after`` before trying again::

    fault = fake.fail("PATCH", ORIGINAL_PATH, status=429, retry_after=0.5)
    ...  # the bot edits a deferred answer: 429, then (0.5 s later) 200
    first, second = fake.attempts_at("PATCH", ORIGINAL_PATH)
    assert first.status == 429 and second.status == 200
    assert second.at - first.answered_at >= 0.5
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import yarl
from aiohttp import BodyPartReader, WSMsgType, web
from discord_spec import SpecCheck, log_wire, spec_check
from fake_places import (
    BOT_DM_CONTEXT,
    GUILD_CONTEXT,
    GUILD_INSTALL,
    MISSING_ACCESS,
    PRIVATE_CHANNEL_CONTEXT,
    TOO_MANY_FOLLOWUPS,
    TOO_MANY_FOLLOWUPS_MESSAGE,
    USER_INSTALL,
    USER_INSTALL_FOLLOWUPS_MAX,
    Place,
    group_dm_channel,
)

API_VERSION = 10
DISCORD_EPOCH_MS = 1_420_070_400_000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15
ALL_PERMISSIONS = (1 << 50) - 1

# Interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# Interaction callback types
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
LAUNCH_ACTIVITY = 12

# Application command types: 4 is the Entry Point command Discord makes for an Activity
CHAT_INPUT_COMMAND, PRIMARY_ENTRY_POINT = 1, 4
# Discord's error codes for the Activity's calls
ENTRY_POINT_REQUIRED = 50240  # a bulk overwrite of the global commands without it
ACTIVITIES_DISABLED = 50234  # launch_activity() for an application without Activities

# Application command option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER = 1, 2, 3, 4, 5, 6
CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 7, 8, 9, 10, 11

# Component types
ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})

# Discord's limits
CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_OPTION_TEXT_MAX = 100
SELECT_PLACEHOLDER_MAX = 150
CHOICES_MAX = 25
CHOICE_TEXT_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMANDS_MAX = 100
COMMAND_NAME_RE = re.compile(r"^[-_\w]{1,32}$")
COMMAND_DESCRIPTION_MAX = 100

RESPONSE_DEADLINE = 3.0  # seconds for the first response to an interaction
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used for follow-ups

# Paths (below /api/v10) of the interaction routes, as regular expressions for fail()
CALLBACK_PATH = r"^/interactions/\d+/[^/]+/callback$"  # the initial response
FOLLOWUP_PATH = r"^/webhooks/\d+/[^/]+$"  # POST: a follow-up message
ORIGINAL_PATH = r"^/webhooks/\d+/[^/]+/messages/@original$"  # GET/PATCH/DELETE @original
WEBHOOK_MESSAGE_PATH = r"^/webhooks/\d+/[^/]+/messages/[^/]+$"  # @original or a follow-up

FAULT_STATUSES = frozenset({429, 500, 502, 503, 504})
RATE_LIMIT_SCOPES = frozenset({"user", "global", "shared"})
ABANDONED = 0  # the status recorded for a held request whose client gave up first


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True, slots=True)
class Violation:
    """One breach of Discord's rules by the bot, as the fake saw it."""

    rule: str  # e.g. "deadline", "invalid-form-body", "already-acknowledged"
    detail: str
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" (interaction {self.interaction_id})" if self.interaction_id else ""
        return f"{self.rule}{where}: {self.detail}"


class DiscordViolation(AssertionError):
    """The bot broke one of Discord's rules (the test side raises this)."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = list(violations)
        lines = "\n  ".join(str(v) for v in self.violations)
        super().__init__(f"Discord would have rejected the bot's behaviour:\n  {lines}")


class SpecRefusal(Exception):
    """A request body Discord's spec refuses: its 400 answer, raised out of the handler."""

    def __init__(self, response: web.Response) -> None:
        super().__init__("refused by Discord's OpenAPI spec")
        self.response = response


@dataclass(frozen=True, slots=True)
class FormError:
    """One problem in a request body, at a path like ("data", "embeds", 0, "title")."""

    path: tuple[str | int, ...]
    code: str
    message: str

    def __str__(self) -> str:
        return f"{'.'.join(str(p) for p in self.path)}: {self.message}"


def form_error_body(errors: Sequence[FormError]) -> dict[str, Any]:
    """The JSON Discord answers with a 400 Invalid Form Body (code 50035)."""
    tree: dict[str, Any] = {}
    for error in errors:
        node = tree
        for part in error.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": error.code, "message": error.message})
    return {"code": 50035, "errors": tree, "message": "Invalid Form Body"}


def _too_long(path: tuple[str | int, ...], limit: int) -> FormError:
    return FormError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _check_length(
    errors: list[FormError], path: tuple[str | int, ...], value: Any, limit: int, minimum: int = 0
) -> None:
    if value is None:
        if minimum:
            errors.append(FormError(path, "BASE_TYPE_REQUIRED", "This field is required"))
        return
    text = str(value)
    if len(text) > limit:
        errors.append(_too_long(path, limit))
    elif len(text) < minimum:
        errors.append(
            FormError(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {minimum} and {limit} in length.",
            )
        )


# --------------------------------------------------------------------------- limits


def embed_errors(
    embeds: Sequence[Mapping[str, Any]], prefix: tuple[str | int, ...] = ()
) -> list[FormError]:
    """Breaches of the embed limits: per field and all embeds together (6000)."""
    errors: list[FormError] = []
    path = (*prefix, "embeds")
    if len(embeds) > EMBEDS_MAX:
        errors.append(_too_long(path, EMBEDS_MAX))
    total = 0
    for i, embed in enumerate(embeds):
        at = (*path, i)
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        _check_length(errors, (*at, "title"), title, EMBED_TITLE_MAX)
        _check_length(errors, (*at, "description"), description, EMBED_DESCRIPTION_MAX)
        total += len(title) + len(description)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.append(_too_long((*at, "fields"), EMBED_FIELDS_MAX))
        for j, fld in enumerate(fields):
            name, value = fld.get("name"), fld.get("value")
            _check_length(errors, (*at, "fields", j, "name"), name, EMBED_FIELD_NAME_MAX, 1)
            _check_length(errors, (*at, "fields", j, "value"), value, EMBED_FIELD_VALUE_MAX, 1)
            total += len(name or "") + len(value or "")
        footer = (embed.get("footer") or {}).get("text") or ""
        _check_length(errors, (*at, "footer", "text"), footer, EMBED_FOOTER_MAX)
        author = (embed.get("author") or {}).get("name") or ""
        _check_length(errors, (*at, "author", "name"), author, EMBED_AUTHOR_MAX)
        total += len(footer) + len(author)
    if total > EMBED_TOTAL_MAX:
        errors.append(
            FormError(
                path,
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX} ({total})",
            )
        )
    return errors


def component_errors(
    components: Sequence[Mapping[str, Any]], prefix: tuple[str | int, ...] = ()
) -> list[FormError]:
    """Breaches of the component limits (action rows of buttons and select menus)."""
    errors: list[FormError] = []
    path = (*prefix, "components")
    if len(components) > ACTION_ROWS_MAX:
        errors.append(_too_long(path, ACTION_ROWS_MAX))
    seen: set[str] = set()
    for i, row in enumerate(components):
        at = (*path, i)
        if row.get("type") != ACTION_ROW:
            errors.append(
                FormError(at, "UNION_TYPE_CHOICES", "Top-level components must be action rows.")
            )
            continue
        children = row.get("components") or []
        if not children:
            errors.append(
                FormError(
                    (*at, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            )
        if len(children) > BUTTONS_PER_ROW_MAX:
            errors.append(_too_long((*at, "components"), BUTTONS_PER_ROW_MAX))
        has_select = any(c.get("type") in SELECT_TYPES for c in children)
        if has_select and len(children) > 1:
            errors.append(
                FormError(
                    (*at, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its action row.",
                )
            )
        for j, child in enumerate(children):
            errors.extend(_child_errors(child, (*at, "components", j), seen))
    return errors


def _child_errors(
    child: Mapping[str, Any], at: tuple[str | int, ...], seen: set[str]
) -> list[FormError]:
    errors: list[FormError] = []
    kind = child.get("type")
    custom_id = child.get("custom_id")
    if kind == BUTTON:
        style = child.get("style")
        if style == 5:
            if not child.get("url"):
                errors.append(
                    FormError((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required")
                )
            if custom_id is not None:
                errors.append(
                    FormError(
                        (*at, "custom_id"),
                        "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                        "A link button cannot have a custom_id.",
                    )
                )
            custom_id = None
        elif style == 6:
            custom_id = None
        else:
            _check_length(errors, (*at, "custom_id"), custom_id, CUSTOM_ID_MAX, 1)
        _check_length(errors, (*at, "label"), child.get("label"), BUTTON_LABEL_MAX)
        if not child.get("label") and not child.get("emoji") and style != 6:
            errors.append(
                FormError(
                    at,
                    "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                    "A button needs a label or an emoji.",
                )
            )
    elif kind in SELECT_TYPES:
        _check_length(errors, (*at, "custom_id"), custom_id, CUSTOM_ID_MAX, 1)
        _check_length(
            errors, (*at, "placeholder"), child.get("placeholder"), SELECT_PLACEHOLDER_MAX
        )
        if kind == STRING_SELECT:
            options = child.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                errors.append(
                    FormError(
                        (*at, "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
                    )
                )
            for k, option in enumerate(options):
                for key in ("label", "value"):
                    _check_length(
                        errors, (*at, "options", k, key), option.get(key), SELECT_OPTION_TEXT_MAX, 1
                    )
                _check_length(
                    errors,
                    (*at, "options", k, "description"),
                    option.get("description"),
                    SELECT_OPTION_TEXT_MAX,
                )
        for key in ("min_values", "max_values"):
            value = child.get(key)
            if value is not None and not 0 <= int(value) <= SELECT_OPTIONS_MAX:
                errors.append(
                    FormError(
                        (*at, key),
                        "NUMBER_TYPE_MAX",
                        f"Must be between 0 and {SELECT_OPTIONS_MAX}.",
                    )
                )
    else:
        errors.append(
            FormError(
                (*at, "type"),
                "UNION_TYPE_CHOICES",
                f"Component type {kind} is not allowed in an action row.",
            )
        )
    if custom_id is not None:
        if custom_id in seen:
            errors.append(
                FormError(
                    (*at, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        seen.add(str(custom_id))
    return errors


def message_errors(
    message: Mapping[str, Any], prefix: tuple[str | int, ...] = ()
) -> list[FormError]:
    """Breaches of the message limits (content, embeds, components); empty messages too."""
    errors: list[FormError] = []
    content = message.get("content") or ""
    _check_length(errors, (*prefix, "content"), content, CONTENT_MAX)
    embeds = message.get("embeds") or []
    errors.extend(embed_errors(embeds, prefix))
    flags = int(message.get("flags") or 0)
    components = message.get("components") or []
    if flags & COMPONENTS_V2:
        errors.append(
            FormError(
                (*prefix, "flags"), "UNSUPPORTED", "The fake does not check components v2 messages."
            )
        )
    else:
        errors.extend(component_errors(components, prefix))
    if (
        not content
        and not embeds
        and not components
        and not message.get("attachments")
        and not message.get("_files")
    ):
        errors.append(FormError(prefix, "EMPTY_MESSAGE", "Cannot send an empty message"))
    return errors


def choice_errors(
    choices: Sequence[Mapping[str, Any]], prefix: tuple[str | int, ...] = ("data",)
) -> list[FormError]:
    """Breaches of the autocomplete limits: 25 choices, name and value 1..100 characters."""
    errors: list[FormError] = []
    path = (*prefix, "choices")
    if len(choices) > CHOICES_MAX:
        errors.append(_too_long(path, CHOICES_MAX))
    for i, choice in enumerate(choices):
        _check_length(errors, (*path, i, "name"), choice.get("name"), CHOICE_TEXT_MAX, 1)
        value = choice.get("value")
        if isinstance(value, str):
            _check_length(errors, (*path, i, "value"), value, CHOICE_TEXT_MAX, 1)
        elif value is None:
            errors.append(
                FormError((*path, i, "value"), "BASE_TYPE_REQUIRED", "This field is required")
            )
    return errors


def command_errors(commands: Sequence[Mapping[str, Any]]) -> list[FormError]:
    """Breaches of the application command limits in a bulk overwrite (PUT) body."""
    errors: list[FormError] = []
    chat_input = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_input) > COMMANDS_MAX:
        errors.append(
            FormError(
                (),
                "APPLICATION_COMMANDS_MAX",
                f"Maximum number of application commands reached ({COMMANDS_MAX})",
            )
        )
    names: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        name = str(command.get("name") or "")
        if (kind, name) in names:
            errors.append(
                FormError(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({name})",
                )
            )
        names.add((kind, name))
        if kind == 1:
            _check_name(errors, (i,), command)
            errors.extend(_option_errors(command.get("options") or [], (i, "options"), depth=0))
    return errors


def _check_name(
    errors: list[FormError], at: tuple[str | int, ...], item: Mapping[str, Any]
) -> None:
    name = str(item.get("name") or "")
    if not COMMAND_NAME_RE.match(name) or name != name.lower():
        errors.append(
            FormError(
                (*at, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid: {name!r}",
            )
        )
    _check_length(errors, (*at, "description"), item.get("description"), COMMAND_DESCRIPTION_MAX, 1)


def _option_errors(
    options: Sequence[Mapping[str, Any]], at: tuple[str | int, ...], depth: int
) -> list[FormError]:
    errors: list[FormError] = []
    if len(options) > COMMAND_OPTIONS_MAX:
        errors.append(_too_long(at, COMMAND_OPTIONS_MAX))
    kinds = {o.get("type") for o in options}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        errors.append(
            FormError(
                at,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Subcommands cannot be mixed with other options.",
            )
        )
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        here = (*at, i)
        _check_name(errors, here, option)
        if option.get("name") in names:
            errors.append(
                FormError(
                    (*here, "name"),
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            )
        names.add(str(option.get("name")))
        kind = option.get("type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
                errors.append(
                    FormError(
                        (*here, "type"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Subcommands nest too deep.",
                    )
                )
            errors.extend(
                _option_errors(option.get("options") or [], (*here, "options"), depth + 1)
            )
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    FormError(
                        (*here, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            errors.append(
                FormError(
                    (*here, "autocomplete"),
                    "AUTOCOMPLETE_AND_CHOICES",
                    "Autocomplete cannot be set with choices.",
                )
            )
        errors.extend(choice_errors(choices, here))
    return errors


# --------------------------------------------------------------------------- model


_last_snowflake = 0


def snowflake() -> int:
    """A new, rising Discord id whose timestamp is now."""
    global _last_snowflake
    value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
    value = max(value, _last_snowflake + 1)
    _last_snowflake = value
    return value


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that gets a server's events, by Discord's rule; DMs are shard 0's."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def _iso(moment: datetime | None = None) -> str:
    return (moment or datetime.now(UTC)).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord user (a person, or the bot itself)."""

    id: int
    name: str
    bot: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def member_dict(self, *, permissions: bool = False) -> dict[str, Any]:
        member: dict[str, Any] = {
            "user": self.to_dict(),
            "roles": [],
            "flags": 0,
            "joined_at": _iso(),
            "deaf": False,
            "mute": False,
            "nick": None,
            "avatar": None,
            "pending": False,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions:
            member["permissions"] = str(ALL_PERMISSIONS)
        return member


@dataclass(eq=False)
class FakeGuild:
    """A server with one text channel."""

    id: int
    name: str
    channel_id: int
    channel_name: str = "general"
    members: list[FakeUser] = field(default_factory=list)

    def channel_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.channel_id),
            "type": 0,
            "guild_id": str(self.id),
            "name": self.channel_name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def to_dict(self, bot_user: FakeUser) -> dict[str, Any]:
        members = [m.member_dict() for m in [bot_user, *self.members]]
        everyone = {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": str(ALL_PERMISSIONS),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.members[0].id if self.members else bot_user.id),
            "unavailable": False,
            "member_count": len(members),
            "large": False,
            "joined_at": _iso(),
            "roles": [everyone],
            "channels": [self.channel_dict()],
            "members": members,
            "threads": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "afk_timeout": 300,
            "afk_channel_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "description": None,
            "banner": None,
            "splash": None,
            "discovery_splash": None,
            "vanity_url_code": None,
            "max_members": 500_000,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "application_id": None,
            "premium_progress_bar_enabled": False,
        }


@dataclass(eq=False)
class FakeMessage:
    """A message the bot created, in its latest state."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    attachments: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    timestamp: str = field(default_factory=_iso)
    edited_timestamp: str | None = None
    version: int = 0  # +1 on every edit
    deleted: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)  # as each edit left it, in order
    made_ephemeral: bool = False  # public as sent, private as Discord showed it (fake_places)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred ("thinking…") response not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def embed(self) -> dict[str, Any] | None:
        return self.embeds[0] if self.embeds else None

    @property
    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.items if c.get("type") == BUTTON]

    @property
    def items(self) -> list[dict[str, Any]]:
        """Every component in the action rows, row by row."""
        return [child for row in self.components for child in row.get("components") or []]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.items if c.get("custom_id")]

    def component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """The component with this custom_id (or button label); LookupError if none."""
        for item in self.items:
            if custom_id is not None and item.get("custom_id") == custom_id:
                return item
            if label is not None and item.get("label") == label:
                return item
        shown = [(c.get("label"), c.get("custom_id")) for c in self.items]
        raise LookupError(
            f"message {self.id} has no component {custom_id or label!r}; it has {shown}"
        )

    def apply(self, payload: Mapping[str, Any]) -> None:
        """Apply the fields of a message edit that are present (others stay)."""
        if "content" in payload:
            self.content = payload["content"] or ""
        if "embeds" in payload:
            self.embeds = [_embed_as_stored(e) for e in payload["embeds"] or []]
        if "components" in payload:
            self.components = list(payload["components"] or [])
        if "attachments" in payload:
            self.attachments = list(payload["attachments"] or [])

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author.to_dict(),
            "embeds": self.embeds,
            "components": self.components,
            "attachments": self.attachments,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


def _embed_as_stored(embed: Mapping[str, Any]) -> dict[str, Any]:
    stored = dict(embed)
    stored.setdefault("type", "rich")
    return stored


@dataclass(eq=False)
class Session:
    """One gateway session (IDENTIFY'd once, maybe RESUMEd later)."""

    id: str
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    identify: dict[str, Any] = field(default_factory=dict)
    resumes: int = 0


@dataclass(frozen=True, slots=True)
class Attempt:
    """One REST request as it reached the fake, and what the fake answered it."""

    at: float  # the fake's clock (FakeDiscord.now) when it arrived
    answered_at: float  # ... when the fake answered it (or gave up on it)
    method: str
    path: str  # below /api/v10, without the query string
    status: int  # the status answered; ABANDONED (0) if the client left a held request
    fault: Fault | None = None  # the armed fault that answered it, if any

    def __str__(self) -> str:
        return f"{self.at:.3f} {self.method} {self.path} -> {self.status}"


@dataclass(eq=False)
class Fault:
    """A fault armed by :meth:`FakeDiscord.fail`: the next ``times`` REST requests whose
    method and path match get it instead of (or, ``applied``, after) the usual answer.

    ``attempts`` are the requests it answered, oldest first; it is ``spent`` once it
    answered ``times`` of them (a spent fault matches nothing more).
    """

    method: str  # "PATCH", "POST", ... or "*" for any
    path: re.Pattern[str]  # searched in the path below /api/v10
    status: int | None  # 429, 500, 502, 503, 504; None: the usual answer (after ``delay``)
    times: int
    retry_after: float = 0.3  # a 429's retry_after, in seconds
    delay: float = 0.0  # seconds the request is held before it is answered
    scope: str = "user"  # a 429's X-RateLimit-Scope ("global": a global rate limit)
    applied: bool = False  # the request is handled first; only its answer is the fault's
    bucket: str = field(default_factory=lambda: secrets.token_hex(16))
    attempts: list[Attempt] = field(default_factory=list)

    taken: int = 0  # requests it was given to (answered, or still held)

    @property
    def hits(self) -> int:
        """The requests it answered so far."""
        return len(self.attempts)

    @property
    def spent(self) -> bool:
        return self.taken >= self.times

    def matches(self, method: str, path: str) -> bool:
        return (
            not self.spent
            and self.method in ("*", method.upper())
            and self.path.search(path) is not None
        )


class InteractionResult:
    """What the bot did with one interaction: its callback, message and follow-ups.

    Read it after ``await fake.slash(...)`` / ``fake.click(...)``, which return once the
    first callback arrived. For a deferred answer, ``await result.wait_message()``.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        payload: dict[str, Any],
        user: FakeUser,
        place: Place | None = None,
    ) -> None:
        self.fake = fake
        self.payload = payload
        self.place = place  # where it was made, when a test said (fake_places.py)
        self.followup_posts = 0  # follow-ups accepted (a user install's limit: 5)
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.guild_id = int(payload["guild_id"]) if "guild_id" in payload else None
        self.channel_id = int(payload["channel"]["id"])
        self.dispatched_at = fake.now()
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] | None = None
        self.responded_at: float | None = None
        self.callback_attempts = 0
        self.message_id: int | None = None  # @original (for a component: the clicked message)
        self.followup_ids: list[int] = []
        self.choices: list[dict[str, Any]] | None = None
        self.violations: list[Violation] = []
        self.answered_late_or_never = False
        self.clicked_message_id: int | None = None  # for a component interaction
        self.activity_instance_id: str | None = None  # launched (callback type 12)
        self._version_at_click = 0
        if self.type == MESSAGE_COMPONENT:
            self.message_id = self.clicked_message_id = int(payload["message"]["id"])
            clicked = fake.messages.get(self.message_id)
            self._version_at_click = clicked.version if clicked else 0

    def __repr__(self) -> str:
        return (
            f"<InteractionResult id={self.id} type={self.type} callback={self.callback_type}"
            f" message={self.message_id} followups={len(self.followup_ids)}>"
        )

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def response_time(self) -> float | None:
        """Seconds from dispatch to the accepted first callback."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at

    @property
    def message(self) -> FakeMessage | None:
        """The response message (@original) in its latest state.

        For a click answered with type 6 or 7 (or not yet answered) that is the clicked
        message; answered with type 4 or 5 it is the new reply.
        """
        if self.message_id is None:
            return None
        return self.fake.messages.get(self.message_id)

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return message.ephemeral if message is not None else False

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[i] for i in self.followup_ids]

    @property
    def clicked_message(self) -> FakeMessage | None:
        """For a component interaction: the message whose component was used."""
        if self.clicked_message_id is None:
            return None
        return self.fake.messages.get(self.clicked_message_id)

    @property
    def edited(self) -> bool:
        """For a click: whether the clicked message was changed since the click."""
        message = self.clicked_message
        return message is not None and message.version > self._version_at_click

    def raise_violations(self) -> None:
        if self.violations:
            raise DiscordViolation(self.violations)

    async def wait_response(self, timeout: float | None = None) -> InteractionResult:
        """Wait for the first callback; a violation or no answer raises DiscordViolation."""
        grace = self.fake.response_deadline + 1.0 if timeout is None else timeout
        remaining = self.dispatched_at + grace - self.fake.now()
        ok = await self.fake.wait_until(
            lambda: self.callback_attempts > 0 or bool(self.violations), timeout=max(remaining, 0.0)
        )
        if not ok and not self.acknowledged:
            self.answered_late_or_never = True
            self.fake.record(
                "no-response",
                f"no answer to the interaction within {grace:.1f} s (Discord shows "
                f"'The application did not respond' after {self.fake.response_deadline:.1f} s)",
                self,
            )
        self.raise_violations()
        return self

    async def wait_message(self, timeout: float = 5.0) -> FakeMessage:
        """The response message once it has its content: after a defer, its edit/follow-up."""
        await self.wait_response()

        def ready() -> bool:
            if self.violations:
                return True
            message = self.message
            if message is None:
                return False
            if self.callback_type == DEFERRED_CHANNEL_MESSAGE:
                return not message.loading
            if self.callback_type == DEFERRED_UPDATE_MESSAGE:
                return self.edited or message.deleted
            return True

        if not await self.fake.wait_until(ready, timeout=timeout):
            raise AssertionError(
                f"{self!r}: the bot never filled in its response within {timeout} s"
            )
        self.raise_violations()
        message = self.message
        if message is None:
            raise AssertionError(f"{self!r} has no message (callback type {self.callback_type})")
        return message

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        """Wait until the bot sent at least ``count`` follow-up messages."""
        await self.wait_response()
        ok = await self.fake.wait_until(
            lambda: len(self.followup_ids) >= count or bool(self.violations), timeout=timeout
        )
        self.raise_violations()
        if not ok:
            raise AssertionError(f"{self!r}: expected {count} follow-up(s) within {timeout} s")
        return self.followups


_DEFAULT: Any = object()


# --------------------------------------------------------------------------- server


class FakeDiscord:
    """The fake Discord server plus a test-side API to act as users."""

    def __init__(
        self,
        *,
        users: Sequence[str] = ("alice", "bob"),
        guilds: Sequence[str] = ("Reel Club",),
        bot_name: str = "ReelBot",
        rejected_tokens: Sequence[str] = ("bad-token",),
        response_deadline: float = RESPONSE_DEADLINE,
        token_lifetime: float = TOKEN_LIFETIME,
    ) -> None:
        self.application_id = snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(snowflake(), "owner")
        self.users: dict[str, FakeUser] = {name: FakeUser(snowflake(), name) for name in users}
        self.guilds: list[FakeGuild] = [
            FakeGuild(snowflake(), name, snowflake(), members=list(self.users.values()))
            for name in guilds
        ]
        self.rejected_tokens = set(rejected_tokens)
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionResult] = {}
        self.violations: list[Violation] = []
        # Discord's OpenAPI spec every request body is checked against (discord_spec.py;
        # None: the fake's own checks alone), and the (method, route, body) it refused
        self.spec: SpecCheck | None = spec_check()
        self.spec_refusals: list[tuple[str, str, object]] = []
        self.sessions: dict[str, Session] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        # Servers the bot is not in (players use it there through a user install), and
        # the places tests made, by channel id: a click on a message there is made there
        self.foreign_guilds: list[FakeGuild] = []
        self.places: dict[int, Place] = {}
        self.requests: list[tuple[str, str]] = []  # (method, path) of every REST call handled
        self.attempts: list[Attempt] = []  # every REST request that arrived, faults included
        self.faults: list[Fault] = []  # armed by fail() and hang(), spent ones included
        self._transports: dict[web.WebSocketResponse, asyncio.Transport] = {}
        self._active: Session | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._changed = asyncio.Event()
        self._clock_offset = 0.0
        self._runner: web.AppRunner | None = None
        self.port = 0
        # The Activity: the application's OAuth2 secret, the codes a sign-in gets
        # (authorize) and the access tokens they are exchanged for, the instances
        self.client_secret = secrets.token_hex(16)
        self.activities_enabled = True
        self.oauth_codes: dict[str, FakeUser] = {}
        self.access_tokens: dict[str, FakeUser] = {}
        self.activity_instances: dict[str, dict[str, Any]] = {}

    # ---------------------------------------------------------------- lifecycle

    @property
    def guild(self) -> FakeGuild:
        """The first (default) guild."""
        return self.guilds[0]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def user(self, name: str) -> FakeUser:
        return self.users[name]

    def add_user(self, name: str, *, guilds: Sequence[FakeGuild] | None = None) -> FakeUser:
        """A new user, member of the given guilds (all of them by default)."""
        new = FakeUser(snowflake(), name)
        self.users[name] = new
        for guild in self.guilds if guilds is None else guilds:
            guild.members.append(new)
        return new

    async def start(self) -> None:
        app = web.Application(middlewares=[self._rest_middleware])
        app.router.add_get("/", self._gateway)
        api = f"/api/v{API_VERSION}"
        routes = [
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/{app}/commands", self._get_commands),
            ("PUT", "/applications/{app}/commands", self._put_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_commands),
            ("POST", "/interactions/{interaction}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app}/{token}", self._followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._webhook_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("POST", "/channels/{channel}/messages", self._channel_post),
            ("GET", "/channels/{channel}/messages/{message}", self._channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._channel_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._channel_message),
            ("POST", "/users/@me/channels", self._create_dm),
            ("POST", "/oauth2/token", self._oauth_token),
            ("GET", "/applications/{app}/activity-instances/{instance}", self._get_instance),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, api + path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unsupported)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        # The port the OS picked: (host, port) of the one listening socket.
        [(_, port, *_)] = self._runner.addresses
        self.port = int(port)

    async def stop(self) -> None:
        """Close every websocket and the server.

        An interaction never answered, and not already blamed for a violation, becomes one.
        """
        for result in self.interactions.values():
            if not (result.acknowledged or result.violations or result.answered_late_or_never):
                result.answered_late_or_never = True
                self.record("no-response", "the interaction was never answered", result)
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake Discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """Point discord.py's REST base and default gateway at this fake; restore after."""
        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield self
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    @contextlib.asynccontextmanager
    async def running(
        self, bot: discord.Client, token: str = "any-token", *, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Start ``bot`` against the fake, wait for on_ready; close it on exit.

        An error from ``bot.start`` (e.g. discord.LoginFailure) propagates.
        """
        if self.api_base != discord.http.Route.BASE:
            raise RuntimeError("use FakeDiscord.patched() first: the bot would reach discord.com")
        task = asyncio.create_task(bot.start(token), name=f"fake-discord-bot-{id(bot)}")
        try:
            deadline = asyncio.get_running_loop().time() + timeout
            while not bot.is_ready():
                if task.done():
                    task.result()  # raises what bot.start raised
                    raise RuntimeError("bot.start() returned before the bot was ready")
                if asyncio.get_running_loop().time() > deadline:
                    raise TimeoutError(f"the bot was not ready within {timeout} s")
                await asyncio.sleep(0.01)
            yield bot
        finally:
            if not bot.is_closed():
                await bot.close()
            if not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(task, timeout=5.0)
            elif not task.cancelled():
                task.exception()  # retrieved; already raised above if it mattered

    # ---------------------------------------------------------------- clock and violations

    def now(self) -> float:
        """The fake's clock (monotonic seconds; :meth:`advance` moves it forward)."""
        return asyncio.get_running_loop().time() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Pretend ``seconds`` have passed (to expire interaction tokens without waiting)."""
        self._clock_offset += seconds

    def record(
        self, rule: str, detail: str, interaction: InteractionResult | None = None
    ) -> Violation:
        violation = Violation(rule, detail, interaction.id if interaction else None)
        self.violations.append(violation)
        if interaction is not None:
            interaction.violations.append(violation)
        self._notify()
        return violation

    def take_violations(self) -> list[Violation]:
        """Return the violations recorded so far and forget them (for tests that provoke them)."""
        taken, self.violations = self.violations, []
        return taken

    def assert_no_violations(self) -> None:
        if self.violations:
            raise DiscordViolation(self.violations)

    def _notify(self) -> None:
        """Wake every :meth:`wait_until` so it re-checks its predicate."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
        """Wait until ``predicate()`` holds (re-checked on every change); False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return True

    # ---------------------------------------------------------------- Discord's own faults

    def fail(
        self,
        method: str,
        path: str,
        *,
        status: int | None = 429,
        times: int = 1,
        retry_after: float = 0.3,
        delay: float = 0.0,
        scope: str = "user",
        applied: bool = False,
    ) -> Fault:
        """Arm a fault: the next ``times`` REST requests matching ``method`` ("*": any) and
        the regular expression ``path`` (searched in the path below /api/v10, e.g.
        ``ORIGINAL_PATH``) are answered with ``status`` instead of being handled.

        - 429: Discord's rate limit answer: the JSON body ``{"message": "You are being rate
          limited.", "retry_after": retry_after, "global": false}`` and the headers
          ``Retry-After``, ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``,
          ``X-RateLimit-Scope`` (``scope``; "global" also sets ``X-RateLimit-Global`` and
          ``"global": true``) and ``Via`` (discord.py takes a 429 without ``Via`` for a
          Cloudflare ban and does not retry it).
        - 500, 503: a JSON error body; 502, 504: Cloudflare's HTML page, as Discord's edge
          answers them.
        - None: the usual answer, after ``delay`` (with ``delay``: a slow call).

        ``delay``: hold each request that long first; a client that gave up meanwhile (a
        timeout) finds nothing done: the request is recorded with status ``ABANDONED``
        and not applied. ``applied``: handle the request, then answer ``status`` anyway
        (the answer was lost on the way back: a client that retries does it twice).

        Faults armed together are tried in the order they were armed; the first that
        matches answers. Returns the fault, whose ``attempts`` are the requests it answered.
        """
        if status is not None and status not in FAULT_STATUSES:
            raise ValueError(f"status must be one of {sorted(FAULT_STATUSES)} or None")
        if status is None and delay <= 0:
            raise ValueError("a fault with no status needs a delay (or it is no fault)")
        if status == 429 and applied:
            raise ValueError("Discord applies nothing it rate limited")
        if scope not in RATE_LIMIT_SCOPES:
            raise ValueError(f"scope must be one of {sorted(RATE_LIMIT_SCOPES)}")
        if times < 1 or retry_after < 0 or delay < 0:
            raise ValueError("times must be positive, retry_after and delay not negative")
        fault = Fault(
            method=method.upper(),
            path=re.compile(path),
            status=status,
            times=times,
            retry_after=retry_after,
            delay=delay,
            scope=scope,
            applied=applied,
        )
        self.faults.append(fault)
        return fault

    def hang(self, method: str, path: str, *, seconds: float, times: int = 1) -> Fault:
        """Arm a REST call that hangs: the next ``times`` matching requests are held
        ``seconds``, then handled as usual, unless their client gave up first (a
        timeout), which leaves nothing done (``fail`` with ``status=None``)."""
        return self.fail(method, path, status=None, delay=seconds, times=times)

    def clear_faults(self) -> None:
        """Disarm every fault not yet spent."""
        for fault in self.faults:
            fault.times = fault.taken

    def attempts_at(self, method: str, path: str) -> list[Attempt]:
        """The requests that arrived for ``method`` ("*": any) and a path matching the
        regular expression ``path``, oldest first, whatever they were answered."""
        pattern = re.compile(path)
        return [
            a
            for a in self.attempts
            if method.upper() in ("*", a.method) and pattern.search(a.path) is not None
        ]

    def _fault_for(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path):
                fault.taken += 1
                return fault
        return None

    def _fault_response(self, fault: Fault) -> web.Response:
        status = fault.status
        if status == 429:
            is_global = fault.scope == "global"
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": is_global,
            }
            headers = {
                "Content-Type": "application/json",
                "Retry-After": str(math.ceil(fault.retry_after)),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Bucket": fault.bucket,
                "X-RateLimit-Scope": fault.scope,
                "Via": "1.1 google",
            }
            if is_global:
                headers["X-RateLimit-Global"] = "true"
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        if status in (502, 504):
            reason = "Bad Gateway" if status == 502 else "Gateway Time-out"
            page = (
                f"<html><head><title>{status} {reason}</title></head><body>"
                f"<center><h1>{status} {reason}</h1></center><hr><center>cloudflare</center>"
                "</body></html>"
            )
            return web.Response(status=status, text=page, content_type="text/html")
        assert status is not None
        reason = "Internal Server Error" if status == 500 else "Service Unavailable"
        return self._json({"message": f"{status}: {reason}", "code": 0}, status)

    @web.middleware
    async def _rest_middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        """Every REST request: record it as an Attempt, and let an armed fault answer it."""
        prefix = f"/api/v{API_VERSION}"
        if not request.path.startswith(prefix + "/"):
            response: web.StreamResponse = await handler(request)
            return response
        path = request.path[len(prefix) :]
        arrived = self.now()
        fault = self._fault_for(request.method, path)
        if fault is not None and fault.delay:
            await asyncio.sleep(fault.delay)
            transport = request.transport
            if transport is None or transport.is_closing():
                self._attempted(arrived, request.method, path, ABANDONED, fault)
                return web.Response(status=408)  # nobody reads it
        if fault is None or fault.status is None or fault.applied:
            try:
                response = await handler(request)
            except SpecRefusal as refused:  # a body Discord's spec refuses (_payload)
                response = refused.response
        if fault is not None and fault.status is not None:
            response = self._fault_response(fault)
        self._attempted(arrived, request.method, path, response.status, fault)
        return response

    def _attempted(
        self, arrived: float, method: str, path: str, status: int, fault: Fault | None
    ) -> None:
        attempt = Attempt(arrived, self.now(), method, path, status, fault)
        self.attempts.append(attempt)
        if fault is not None:
            fault.attempts.append(attempt)
        self._notify()

    async def drop_gateway(self, code: int | None = 4000, *, timeout: float = 5.0) -> Session:
        """Cut the bot's gateway connection under it, and wait until it RESUMEd its session.

        ``code``: the close code Discord sends (4000, "unknown error", and the other
        resumable codes: the client reconnects and resumes); None: the TCP connection is
        cut with no close frame at all, as a network fault does (the client sees 1006).
        Unlike :meth:`reconnect` (op 7) the bot gets no warning. Events dispatched while
        it is away wait for it (``dispatch`` waits until a session is connected).
        """
        session = self._active
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        before, ws = session.resumes, session.ws
        if code is None:
            transport = self._transports.get(ws)
            if transport is None:
                raise RuntimeError("the gateway connection has no transport to cut")
            transport.abort()
        else:
            await ws.close(code=code, message=b"fake Discord dropped the connection")
        if not await self.wait_until(
            lambda: session.resumes > before and session.ws is not None, timeout
        ):
            raise AssertionError("the bot did not resume its gateway session")
        return session

    # ---------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.add(ws)
        if request.transport is not None:
            self._transports[ws] = request.transport
        session: Session | None = None
        try:
            await ws.send_str(
                json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
            )
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                msg = json.loads(frame.data)
                op, data = msg.get("op"), msg.get("d")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                elif op == 2:
                    session = await self._identify(ws, data)
                elif op == 6:
                    session = await self._resume(ws, data)
                elif op == 8 and session is not None:
                    await self._members_chunk(session, data)
        finally:
            self._sockets.discard(ws)
            self._transports.pop(ws, None)
            if session is not None and session.ws is ws:
                session.ws = None
            self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") in self.rejected_tokens:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = Session(id=secrets.token_hex(16), ws=ws, identify=data)
        self.sessions[session.id] = session
        self._active = session
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": self.bot_user.to_dict(),
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._guilds_of(session)],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._send_dispatch(session, "READY", ready)
        for guild in self._guilds_of(session):
            await self._send_dispatch(session, "GUILD_CREATE", guild.to_dict(self.bot_user))
        self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") in self.rejected_tokens:
            await ws.send_str(json.dumps({"op": 9, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        session.resumes += 1
        self._active = session
        await self._send_dispatch(session, "RESUMED", {"_trace": ["fake-discord"]})
        self._notify()
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self._guild(int(data["guild_id"]))
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.member_dict() for m in [self.bot_user, *guild.members]],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if "nonce" in data:
            chunk["nonce"] = data["nonce"]
        await self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        if session.ws is None or session.ws.closed:
            raise RuntimeError(f"gateway session {session.id} has no open websocket")
        session.seq += 1
        await session.ws.send_str(json.dumps({"op": 0, "t": event, "s": session.seq, "d": data}))

    @property
    def connected(self) -> bool:
        """True when a bot has an open, identified gateway session."""
        return (
            self._active is not None and self._active.ws is not None and not self._active.ws.closed
        )

    @staticmethod
    def _shard(session: Session) -> tuple[int, int]:
        """(shard id, shard count) the session IDENTIFY'd with ((0, 1): unsharded)."""
        shard = session.identify.get("shard") or [0, 1]
        return int(shard[0]), int(shard[1])

    def _guilds_of(self, session: Session) -> list[FakeGuild]:
        shard, count = self._shard(session)
        return [g for g in self.guilds if shard_of(g.id, count) == shard]

    def _session_for(self, guild_id: int | None) -> Session | None:
        """The open session of the shard that owns ``guild_id`` when bots connected with
        several shards; else the one connected last."""
        for session in self.sessions.values():
            shard, count = self._shard(session)
            is_open = session.ws is not None and not session.ws.closed
            if is_open and count > 1 and shard_of(guild_id, count) == shard:
                return session
        if any(self._shard(s)[1] > 1 for s in self.sessions.values()):
            return None  # sharded, and the owning shard is not connected (yet)
        return self._active if self.connected else None

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the bot connected last; with several shards, to the
        shard of its ``guild_id`` (Discord's rule, ``shard_of``; no guild: shard 0)."""
        guild_id = int(data["guild_id"]) if data.get("guild_id") else None
        if self._session_for(guild_id) is None:
            ok = await self.wait_until(lambda: self._session_for(guild_id) is not None, 5.0)
            if not ok:
                raise RuntimeError("no bot is connected to the fake gateway")
        session = self._session_for(guild_id)
        assert session is not None
        await self._send_dispatch(session, event, data)

    async def reconnect(self, timeout: float = 5.0) -> Session:
        """Ask the bot to reconnect (op 7); wait until it RESUMEd its session."""
        session = self._active
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        before = session.resumes
        await session.ws.send_str(json.dumps({"op": 7, "d": None, "s": None, "t": None}))
        if not await self.wait_until(
            lambda: session.resumes > before and session.ws is not None, timeout
        ):
            raise AssertionError("the bot did not resume its gateway session")
        return session

    # ---------------------------------------------------------------- REST helpers

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # discord.py compares Content-Type with == 'application/json': no charset.
        return web.Response(
            status=status,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
        )

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"message": message, "code": code}, status)

    def _invalid(
        self, errors: Sequence[FormError], interaction: InteractionResult | None, what: str
    ) -> web.Response:
        detail = f"{what}: " + "; ".join(str(e) for e in errors)
        self.record("invalid-form-body", detail, interaction)
        return self._json(form_error_body(errors), 400)

    async def _payload(self, request: web.Request) -> dict[str, Any]:
        """The request's JSON body (a multipart body's ``payload_json``, its files under
        ``_files``), checked against Discord's OpenAPI spec (discord_spec.py): a body the
        spec refuses is a violation, answered as Discord does, 400 Invalid Form Body."""
        payload = await self._read_payload(request)
        prefix = f"/api/v{API_VERSION}"
        route = request.match_info.route.resource
        template = route.canonical[len(prefix) :] if route is not None else request.path
        body = (
            {k: v for k, v in payload.items() if k != "_files"}
            if isinstance(payload, dict)
            else payload
        )
        log_wire(request.method, template, body)
        errors = [] if self.spec is None else self.spec.errors(request.method, template, body)
        if errors:
            assert self.spec is not None
            self.spec_refusals.append((request.method, template, body))
            detail = f"{request.method} {template} ({self.spec.source}): " + "; ".join(
                str(e) for e in errors
            )
            self.record("openapi-spec", detail, self._interaction_of(request))
            form = [FormError(e.path, "SPEC", e.message) for e in errors]
            raise SpecRefusal(self._json(form_error_body(form), 400))
        return payload

    def _interaction_of(self, request: web.Request) -> InteractionResult | None:
        """The interaction a callback or webhook request answers, if the fake sent it."""
        if "interaction" in request.match_info:
            return self.interactions.get(int(request.match_info["interaction"]))
        token = request.match_info.get("token")
        found = [i for i in self.interactions.values() if token is not None and i.token == token]
        return found[0] if found else None

    @staticmethod
    async def _read_payload(request: web.Request) -> dict[str, Any]:
        if request.content_type.startswith("multipart/"):
            payload: dict[str, Any] = {}
            files: dict[str, bytes] = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files[part.filename or str(part.name)] = bytes(await part.read())
            if files:
                payload["_files"] = files
            return payload
        text = await request.text()
        return json.loads(text) if text else {}

    def _guild(self, guild_id: int, *, foreign: bool = False) -> FakeGuild:
        """The bot's server ``guild_id`` (``foreign``: or a server it is not in)."""
        for guild in [*self.guilds, *(self.foreign_guilds if foreign else [])]:
            if guild.id == guild_id:
                return guild
        raise LookupError(f"no guild {guild_id}")

    def _channel_guild(self, channel_id: int) -> FakeGuild | None:
        for guild in self.guilds:
            if guild.channel_id == channel_id:
                return guild
        return None

    def _dm_channel(self, user: FakeUser) -> int:
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = snowflake()
        return self.dm_channels[user.id]

    def _dm_channel_dict(self, user: FakeUser) -> dict[str, Any]:
        return {
            "id": str(self._dm_channel(user)),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user.to_dict()],
        }

    def _store(self, message: FakeMessage) -> FakeMessage:
        self.messages[message.id] = message
        self._notify()
        return message

    def _new_message(
        self,
        payload: Mapping[str, Any],
        *,
        channel_id: int,
        guild_id: int | None,
        kind: int = 0,
        interaction: InteractionResult | None = None,
        flags: int | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            id=snowflake(),
            channel_id=channel_id,
            guild_id=guild_id,
            author=self.bot_user,
            type=kind,
            flags=int(payload.get("flags") or 0) & (EPHEMERAL | 4 | 4096)
            if flags is None
            else flags,
            webhook_id=self.application_id if interaction is not None else None,
            files=dict(payload.get("_files") or {}),
        )
        message.apply(payload)
        message.attachments = self._attachments(message.files) or message.attachments
        if interaction is not None:
            place = interaction.place
            if place is not None and place.forces_ephemeral and not message.ephemeral:
                message.flags |= EPHEMERAL  # no Use External Apps: the player alone sees it
                message.made_ephemeral = True
            message.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.to_dict(),
                "authorizing_integration_owners": dict(
                    interaction.payload["authorizing_integration_owners"]
                ),
            }
            if interaction.type == MESSAGE_COMPONENT and interaction.message_id is not None:
                message.interaction_metadata["interacted_message_id"] = str(interaction.message_id)
        return message

    def _attachments(self, files: Mapping[str, bytes]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(snowflake()),
                "filename": name,
                "size": len(data),
                "url": f"{self.base_url}/attachments/{name}",
                "proxy_url": f"{self.base_url}/attachments/{name}",
            }
            for name, data in files.items()
        ]

    def _edit(self, message: FakeMessage, payload: Mapping[str, Any]) -> None:
        before = list(message.attachments)
        message.apply(payload)
        if "attachments" in payload:
            # As Discord does: the edit keeps the old attachments it lists by id (new
            # uploads are listed by their index among the files, not an attachment's id).
            listed = {str(a.get("id")) for a in payload["attachments"] or []}
            message.attachments = [a for a in before if a["id"] in listed]
            kept = {a["filename"] for a in message.attachments}
            message.files = {n: data for n, data in message.files.items() if n in kept}
        if payload.get("_files"):
            message.files.update(payload["_files"])
            message.attachments = [*message.attachments, *self._attachments(payload["_files"])]
        message.flags &= ~LOADING
        message.version += 1
        message.edited_timestamp = _iso()
        message.edits.append(message.to_dict())
        self._notify()

    def _merged(self, message: FakeMessage, payload: Mapping[str, Any]) -> dict[str, Any]:
        merged = message.to_dict()
        merged.update(
            {
                k: v
                for k, v in payload.items()
                if k in ("content", "embeds", "components", "attachments", "_files")
            }
        )
        merged["flags"] = message.flags & ~LOADING
        return merged

    # ---------------------------------------------------------------- REST: start-up

    async def _unsupported(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        self.record(
            "unsupported-route", f"the fake does not implement {request.method} {request.path}"
        )
        return self._error(404, 0, "404: Not Found")

    async def _get_gateway(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        return self._json(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _authorized(self, request: web.Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return auth.startswith("Bot ") and auth[4:] not in self.rejected_tokens

    async def _get_me(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        auth = request.headers.get("Authorization", "")
        if auth.startswith("Bearer "):  # a player's OAuth2 access token
            user = self.access_tokens.get(auth[7:])
            if user is None:
                return self._error(401, 0, "401: Unauthorized")
            return self._json({**user.to_dict(), "global_name": user.name.title()})
        if not self._authorized(request):
            return self._error(401, 0, "401: Unauthorized")
        data = self.bot_user.to_dict()
        data.update(
            {"verified": True, "mfa_enabled": False, "flags": 0, "email": None, "locale": "en-US"}
        )
        return self._json(data)

    async def _get_application(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        if not self._authorized(request):
            return self._error(401, 0, "401: Unauthorized")
        return self._json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.to_dict(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
                "bot": self.bot_user.to_dict(),
            }
        )

    def _command_list(self, request: web.Request) -> list[dict[str, Any]] | None:
        guild = request.match_info.get("guild")
        if guild is None:
            return self.global_commands
        return self.guild_commands.get(int(guild), [])

    async def _get_commands(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        if int(request.match_info["app"]) != self.application_id:
            return self._error(404, 10002, "Unknown Application")
        return self._json(self._command_list(request))

    async def _put_commands(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        if not self._authorized(request):
            return self._error(401, 0, "401: Unauthorized")
        if int(request.match_info["app"]) != self.application_id:
            return self._error(404, 10002, "Unknown Application")
        body = await self._payload(request)
        if not isinstance(body, list):
            return self._invalid(
                [FormError((), "BASE_TYPE_ARRAY", "Must be an array")], None, "command sync"
            )
        errors = command_errors(body)
        if errors:
            return self._invalid(errors, None, "command sync")
        guild = request.match_info.get("guild")
        entry = [
            c for c in self._command_list(request) or [] if c.get("type") == PRIMARY_ENTRY_POINT
        ]
        kept = {str(c.get("id")) for c in body if c.get("type") == PRIMARY_ENTRY_POINT}
        if guild is None and entry and not {str(c["id"]) for c in entry} <= kept:
            self.record("entry-point", "a global bulk overwrite without the Entry Point command")
            return self._error(
                400,
                ENTRY_POINT_REQUIRED,
                "You cannot remove this app's Entry Point command in a bulk update operation. "
                "Please include the Entry Point command in your update request or delete it "
                "separately.",
            )
        old = {c["name"]: c for c in self._command_list(request) or []}
        stored = []
        for command in body:
            saved = dict(command)
            saved.setdefault("type", 1)
            saved["id"] = (
                str(command["id"])
                if command.get("id") and saved["type"] == PRIMARY_ENTRY_POINT
                else old[command["name"]]["id"]
                if command["name"] in old
                else str(snowflake())
            )
            saved["application_id"] = str(self.application_id)
            saved["version"] = str(snowflake())
            saved.setdefault("default_member_permissions", None)
            saved.setdefault("nsfw", False)
            if guild is not None:
                saved["guild_id"] = guild
            stored.append(saved)
        if guild is None:
            self.global_commands = stored
        else:
            self._guild(int(guild))  # LookupError for an unknown guild
            self.guild_commands[int(guild)] = stored
        self._notify()
        return self._json(stored)

    # ---------------------------------------------------------------- the Activity

    def authorization_code(self, user: FakeUser) -> str:
        """A code ``user`` got from the SDK's ``authorize`` (one use)."""
        code = secrets.token_urlsafe(12)
        self.oauth_codes[code] = user
        return code

    def add_activity_instance(
        self,
        users: Sequence[FakeUser],
        *,
        channel_id: int | None = None,
        guild: FakeGuild | None = None,
        instance_id: str | None = None,
    ) -> str:
        """An Activity instance in a channel (the default guild's text channel) with
        ``users`` in it; its id."""
        guild = guild or self.guild
        found = instance_id or f"i-{secrets.token_hex(8)}"
        self.activity_instances[found] = {
            "guild_id": guild.id,
            "channel_id": channel_id or guild.channel_id,
            "users": [user.id for user in users],
        }
        return found

    def add_entry_point(
        self,
        name: str = "launch",
        *,
        integration_types: Sequence[int] = (0, 1),
        contexts: Sequence[int] = (0, 1, 2),
    ) -> dict[str, Any]:
        """The Entry Point command (type 4) Discord makes when Activities are enabled
        (where it is offered: as Discord makes it, unless an operator narrowed it)."""
        command = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": PRIMARY_ENTRY_POINT,
            "name": name,
            "description": "",
            "handler": 2,  # DISCORD_LAUNCH_ACTIVITY: Discord launches it, no interaction
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": list(integration_types),
            "contexts": list(contexts),
        }
        self.global_commands.append(command)
        return command

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: a sign-in's code for an access token (a form)."""
        self.requests.append((request.method, request.path))
        form = await request.post()
        if form.get("client_id") != str(self.application_id) or (
            form.get("client_secret") != self.client_secret
        ):
            return self._json({"error": "invalid_client"}, 401)
        if form.get("grant_type") != "authorization_code":
            return self._json({"error": "unsupported_grant_type"}, 400)
        user = self.oauth_codes.pop(str(form.get("code") or ""), None)
        if user is None:
            return self._json(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400
            )
        token = secrets.token_urlsafe(24)
        self.access_tokens[token] = user
        return self._json(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    async def _get_instance(self, request: web.Request) -> web.Response:
        """``GET /applications/{app}/activity-instances/{instance}`` (the bot's token)."""
        self.requests.append((request.method, request.path))
        if not self._authorized(request):
            return self._error(401, 0, "401: Unauthorized")
        if int(request.match_info["app"]) != self.application_id:
            return self._error(404, 10002, "Unknown Application")
        instance_id = request.match_info["instance"]
        found = self.activity_instances.get(instance_id)
        if found is None:
            return self._error(404, 10090, "Unknown activity instance")
        return self._json(
            {
                "application_id": str(self.application_id),
                "instance_id": instance_id,
                "launch_id": str(snowflake()),
                "location": {
                    "id": f"gc-{found['guild_id']}-{found['channel_id']}",
                    "kind": "gc",
                    "channel_id": str(found["channel_id"]),
                    "guild_id": str(found["guild_id"]),
                },
                "users": [str(user) for user in found["users"]],
            }
        )

    # ---------------------------------------------------------------- REST: interactions

    async def _callback(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request)
        interaction = self.interactions.get(int(request.match_info["interaction"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            self.record(
                "unknown-interaction",
                f"callback for an interaction the fake never sent: {request.path}",
            )
            return self._error(404, 10062, "Unknown interaction")
        interaction.callback_attempts += 1
        self._notify()
        elapsed = self.now() - interaction.dispatched_at
        if interaction.acknowledged:
            self.record(
                "already-acknowledged",
                f"a second initial response (type {payload.get('type')})"
                f" after type {interaction.callback_type}",
                interaction,
            )
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        if elapsed > self.response_deadline:
            interaction.answered_late_or_never = True
            self.record(
                "deadline",
                f"first response after {elapsed:.2f} s;"
                f" Discord allows {self.response_deadline:.1f} s",
                interaction,
            )
            return self._error(404, 10062, "Unknown interaction")
        kind = payload.get("type")
        data = payload.get("data") or {}
        if payload.get("_files"):  # a multipart callback: its files belong to the message
            data = {**data, "_files": payload["_files"]}
        allowed = {
            APPLICATION_COMMAND: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                MODAL,
                LAUNCH_ACTIVITY,
            },
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
                LAUNCH_ACTIVITY,
            },
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MODAL_SUBMIT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
            },
        }[interaction.type]
        if kind not in allowed:
            self.record(
                "wrong-callback-type",
                f"callback type {kind} is not allowed for interaction type {interaction.type}",
                interaction,
            )
            return self._json(
                form_error_body(
                    [
                        FormError(
                            ("type",), "INTERACTION_CALLBACK_TYPE_INVALID", "Invalid callback type"
                        )
                    ]
                ),
                400,
            )
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            if kind == UPDATE_MESSAGE:
                target = interaction.message
                if target is None or target.deleted:
                    self.record(
                        "unknown-message", "update of a message the fake does not have", interaction
                    )
                    return self._error(404, 10008, "Unknown Message")
                errors = message_errors(self._merged(target, data), ("data",))
            else:
                errors = message_errors(data, ("data",))
            if errors:
                return self._invalid(errors, interaction, f"callback type {kind}")
        if kind == AUTOCOMPLETE_RESULT:
            errors = choice_errors(data.get("choices") or [])
            if errors:
                return self._invalid(errors, interaction, "autocomplete choices")
        if kind == LAUNCH_ACTIVITY and not self.activities_enabled:
            return self._error(
                400, ACTIVITIES_DISABLED, "Activities are not enabled for this application"
            )
        # Accepted: the interaction is acknowledged from here on.
        interaction.callback_type = kind
        interaction.callback_data = data
        interaction.responded_at = self.now()
        body: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "activity_instance_id": None,
                "response_message_id": None,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            }
        }
        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            message = self._new_message(
                data,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                kind=20 if interaction.type == APPLICATION_COMMAND else 0,
                interaction=interaction,
            )
            interaction.message_id = message.id
            self._store(message)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                {},
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                kind=20 if interaction.type == APPLICATION_COMMAND else 0,
                interaction=interaction,
                flags=flags,
            )
            interaction.message_id = message.id
            self._store(message)
        elif kind == UPDATE_MESSAGE:
            message = interaction.message
            assert message is not None
            self._edit(message, data)
        elif kind == AUTOCOMPLETE_RESULT:
            interaction.choices = list(data.get("choices") or [])
        elif kind == LAUNCH_ACTIVITY:  # the launcher is in a new instance, in that channel
            instance = self.add_activity_instance(
                [interaction.user],
                channel_id=interaction.channel_id,
                guild=self._guild(interaction.guild_id, foreign=True)
                if interaction.guild_id
                else None,
            )
            interaction.activity_instance_id = instance
            body["interaction"]["activity_instance_id"] = instance
            body["resource"] = {"type": kind, "activity_instance": {"id": instance}}
        if message is not None:
            body["interaction"].update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
            body["resource"] = {"type": kind, "message": message.to_dict()}
        self._notify()
        return self._json(body)

    def _webhook_interaction(
        self, request: web.Request
    ) -> tuple[InteractionResult | None, web.Response | None]:
        token = request.match_info["token"]
        if int(request.match_info["app"]) != self.application_id:
            self.record("unknown-webhook", f"webhook for another application: {request.path}")
            return None, self._error(404, 10015, "Unknown Webhook")
        for interaction in self.interactions.values():
            if interaction.token == token:
                break
        else:
            self.record(
                "unknown-webhook", f"webhook with a token the fake never issued: {request.path}"
            )
            return None, self._error(404, 10015, "Unknown Webhook")
        age = self.now() - interaction.dispatched_at
        if age > self.token_lifetime:
            self.record(
                "token-expired",
                f"interaction token used {age:.0f} s after the interaction;"
                f" it lives {self.token_lifetime:.0f} s",
                interaction,
            )
            return None, self._error(401, 50027, "Invalid Webhook Token")
        if not interaction.acknowledged:
            self.record(
                "not-acknowledged",
                f"{request.method} {request.path} before any initial response to the interaction",
                interaction,
            )
            return None, self._error(404, 10015, "Unknown Webhook")
        return interaction, None

    async def _followup(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request)
        interaction, refusal = self._webhook_interaction(request)
        if refusal is not None:
            return refusal
        assert interaction is not None
        place = interaction.place
        if (
            place is not None
            and place.limits_followups
            and interaction.followup_posts >= USER_INSTALL_FOLLOWUPS_MAX
        ):
            self.record(
                "followup-limit",
                f"follow-up {interaction.followup_posts + 1} of a user-installed app's "
                f"interaction where it is not installed: Discord takes "
                f"{USER_INSTALL_FOLLOWUPS_MAX}",
                interaction,
            )
            return self._error(400, TOO_MANY_FOLLOWUPS, TOO_MANY_FOLLOWUPS_MESSAGE)
        interaction.followup_posts += 1
        original = interaction.message
        if (
            interaction.callback_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
        ):
            # The first follow-up after a "thinking…" defer fills in that message,
            # which keeps the defer's flags (Discord: a follow-up that finds the
            # message loading resolves it, and its ephemeral flag cannot change;
            # discord-api-docs issue 2742, pull request 3466).
            errors = message_errors(self._merged(original, payload))
            if errors:
                return self._invalid(errors, interaction, "follow-up")
            self._edit(original, payload)
            message = original
        else:
            errors = message_errors(payload)
            if errors:
                return self._invalid(errors, interaction, "follow-up")
            message = self._new_message(
                payload,
                channel_id=interaction.channel_id,
                guild_id=interaction.guild_id,
                interaction=interaction,
            )
            self._store(message)
        interaction.followup_ids.append(message.id)
        self._notify()
        if request.query.get("wait", "").lower() in ("true", "1"):
            return self._json(message.to_dict())
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request) if request.method == "PATCH" else {}
        interaction, refusal = self._webhook_interaction(request)
        if refusal is not None:
            return refusal
        assert interaction is not None
        ref = request.match_info["message"]
        if ref == "@original":
            message = interaction.message
        else:
            allowed = {*interaction.followup_ids, interaction.message_id}
            message = self.messages.get(int(ref)) if int(ref) in allowed else None
        if message is None or message.deleted:
            self.record(
                "unknown-message", f"{request.method} {request.path}: no such message", interaction
            )
            return self._error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return self._json(message.to_dict())
        if request.method == "DELETE":
            message.deleted = True
            self._notify()
            return web.Response(status=204)
        errors = message_errors(self._merged(message, payload))
        if errors:
            return self._invalid(errors, interaction, "message edit")
        self._edit(message, payload)
        return self._json(message.to_dict())

    # ---------------------------------------------------------------- REST: channels

    def _channel_dict(self, channel_id: int) -> dict[str, Any] | None:
        guild = self._channel_guild(channel_id)
        if guild is not None:
            return guild.channel_dict()
        for user_id, dm in self.dm_channels.items():
            if dm == channel_id:
                user = next(u for u in self.users.values() if u.id == user_id)
                return self._dm_channel_dict(user)
        return None

    def _no_access(self, request: web.Request) -> web.Response | None:
        """403 Missing Access for a channel the bot is not a member of (a server it is
        not in, a group DM): a player's user install answers there only through the
        interaction; a violation too, so a bot that swallows the 403 still fails a test."""
        place = self.places.get(int(request.match_info["channel"]))
        if place is None or place.bot_is_member:
            return None
        self.record(
            "missing-access",
            f"{request.method} {request.path}: the bot is not a member of {place.name}",
        )
        return self._error(403, MISSING_ACCESS, "Missing Access")

    async def _get_channel(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        if (refused := self._no_access(request)) is not None:
            return refused
        channel = self._channel_dict(int(request.match_info["channel"]))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        return self._json(channel)

    async def _create_dm(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request)
        recipient = int(payload.get("recipient_id", 0))
        for user in self.users.values():
            if user.id == recipient:
                return self._json(self._dm_channel_dict(user))
        return self._error(400, 50033, "Invalid Recipient(s)")

    async def _channel_post(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request)
        if (refused := self._no_access(request)) is not None:
            return refused
        channel_id = int(request.match_info["channel"])
        if self._channel_dict(channel_id) is None:
            return self._error(404, 10003, "Unknown Channel")
        errors = message_errors(payload)
        if errors:
            return self._invalid(errors, None, "channel message")
        guild = self._channel_guild(channel_id)
        message = self._new_message(
            payload, channel_id=channel_id, guild_id=guild.id if guild else None
        )
        self._store(message)
        return self._json(message.to_dict())

    async def _channel_message(self, request: web.Request) -> web.Response:
        self.requests.append((request.method, request.path))
        payload = await self._payload(request) if request.method == "PATCH" else {}
        if (refused := self._no_access(request)) is not None:
            return refused
        message = self.messages.get(int(request.match_info["message"]))
        if (
            message is None
            or message.deleted
            or message.channel_id != int(request.match_info["channel"])
        ):
            return self._error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return self._json(message.to_dict())
        if message.ephemeral:
            self.record(
                "unknown-message",
                f"{request.method} of an ephemeral message through the channel API",
            )
            return self._error(404, 10008, "Unknown Message")
        if request.method == "DELETE":
            message.deleted = True
            self._notify()
            return web.Response(status=204)
        errors = message_errors(self._merged(message, payload))
        if errors:
            return self._invalid(errors, None, "channel message edit")
        self._edit(message, payload)
        return self._json(message.to_dict())

    # ---------------------------------------------------------------- test side: places

    def _placed(self, place: Place) -> Place:
        self.places[place.channel_id] = place
        return place

    def server(self, guild: FakeGuild | None = None, *, user_install: bool = False) -> Place:
        """A channel of a server the bot is in, where the game is installed to the server
        (``user_install``: and to the player's account too): as ``slash(guild=...)``."""
        target = guild or self.guild
        installs = {GUILD_INSTALL, USER_INSTALL} if user_install else {GUILD_INSTALL}
        return Place(
            GUILD_CONTEXT,
            frozenset(installs),
            target.channel_dict(),
            target.members,
            guild=target,
            name=target.name,
        )

    def foreign_server(
        self,
        name: str = "Elsewhere",
        *,
        members: Sequence[FakeUser] | None = None,
        external_apps: bool = True,
    ) -> Place:
        """A server the bot is not in (no GUILD_CREATE, no access to its channel), where
        players use the game through their own install (every user by default)."""
        guild = FakeGuild(
            snowflake(),
            name,
            snowflake(),
            members=list(self.users.values() if members is None else members),
        )
        self.foreign_guilds.append(guild)
        return self._placed(
            Place(
                GUILD_CONTEXT,
                frozenset({USER_INSTALL}),
                guild.channel_dict(),
                guild.members,
                guild=guild,
                bot_is_member=False,
                external_apps=external_apps,
                name=name,
            )
        )

    def group_dm(self, *users: FakeUser, external_apps: bool = True) -> Place:
        """A group DM of ``users`` (the first its owner), the bot not in it: the game is
        used there through a player's own install (context 2, channel type 3)."""
        if not users:
            raise ValueError("a group DM needs its users")
        channel = group_dm_channel(snowflake(), users[0], list(users))
        return self._placed(
            Place(
                PRIVATE_CHANNEL_CONTEXT,
                frozenset({USER_INSTALL}),
                channel,
                list(users),
                bot_is_member=False,
                external_apps=external_apps,
                name="a group DM",
            )
        )

    def bot_dm(self, user: FakeUser, *, installs: Sequence[int] = (USER_INSTALL,)) -> Place:
        """``user``'s DM with the bot (context 1), through their own install by default
        (``installs=(GUILD_INSTALL,)``: a server's install, owners ``{"0": "0"}``)."""
        return self._placed(
            Place(
                BOT_DM_CONTEXT,
                frozenset(installs),
                self._dm_channel_dict(user),
                [user],
                name=f"{user.name}'s DM with the bot",
            )
        )

    def find_command_at(self, name: str, place: Place) -> dict[str, Any]:
        """The command ``/name`` as a player sees it there: a server's own commands where
        the game is installed to it, else a global one that declares that install and
        context (the Discord client offers no other)."""
        if place.guild is not None and GUILD_INSTALL in place.installs:
            for command in self.guild_commands.get(place.guild.id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        for command in self.global_commands:
            if command["name"] == name and command.get("type", 1) == 1 and place.offers(command):
                return command
        raise LookupError(f"no /{name} command is offered in {place.name}")

    # ---------------------------------------------------------------- test side: act as users

    def _where(
        self, user: FakeUser, guild: Any, dm: bool, place: Place | None
    ) -> tuple[FakeGuild | None, dict[str, Any]]:
        if place is None:
            return self._context(user, guild, dm)
        if guild is not _DEFAULT or dm:
            raise ValueError("say where with place=, or with guild=/dm=, not both")
        place.admit(user)
        return place.guild, place.channel

    def _context(
        self, user: FakeUser, guild: Any, dm: bool
    ) -> tuple[FakeGuild | None, dict[str, Any]]:
        if dm:
            return None, self._dm_channel_dict(user)
        if guild is _DEFAULT or guild is None:
            target = self.guild
        elif isinstance(guild, FakeGuild):
            target = guild
        else:
            target = self._guild(int(guild))
        if user not in target.members:
            raise LookupError(f"{user.name} is not a member of {target.name}")
        return target, target.channel_dict()

    def _envelope(
        self,
        kind: int,
        user: FakeUser,
        guild: FakeGuild | None,
        channel: dict[str, Any],
        data: dict[str, Any],
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(snowflake()),
            "application_id": str(self.application_id),
            "type": kind,
            "token": "itk." + secrets.token_urlsafe(24),
            "version": 1,
            "attachment_size_limit": 26_214_400,
            "channel": channel,
            "channel_id": channel["id"],
            "data": data,
            "locale": "en-US",
            "app_permissions": str(ALL_PERMISSIONS),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)}
            if guild
            else {"1": str(user.id)},
            "context": 0 if guild else 1,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["member"] = user.member_dict(permissions=True)
        else:
            payload["user"] = user.to_dict()
        return payload

    def find_command(self, name: str, guild: FakeGuild | None) -> dict[str, Any]:
        """The registered command a user would see in this guild (None: in DMs)."""
        if guild is not None:
            for command in self.guild_commands.get(guild.id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        for command in self.global_commands:
            if command["name"] == name and command.get("type", 1) == 1:
                in_dms = command.get("dm_permission") is not False and 1 in (
                    command.get("contexts") or [0, 1, 2]
                )
                if guild is not None or in_dms:
                    return command
        where = guild.name if guild else "DMs"
        raise LookupError(f"no /{name} command is registered for {where}")

    def _command_data(
        self,
        name: str,
        sub: str | None,
        options: Mapping[str, Any],
        guild: FakeGuild | None,
        focused: str | None,
        place: Place | None = None,
    ) -> dict[str, Any]:
        command = (
            self.find_command(name, guild) if place is None else self.find_command_at(name, place)
        )
        data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        resolved: dict[str, dict[str, Any]] = {}
        definitions = command.get("options") or []
        container = data
        path = f"/{name}"
        for part in (sub or "").split():
            match = next(
                (
                    o
                    for o in definitions
                    if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if match is None:
                subs = [
                    o["name"] for o in definitions if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ]
                raise LookupError(f"{path} has no subcommand {part!r}; it has {subs}")
            node: dict[str, Any] = {"type": match["type"], "name": part, "options": []}
            container.setdefault("options", []).append(node)
            container = node
            definitions = match.get("options") or []
            path += f" {part}"
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in definitions):
            subs = [o["name"] for o in definitions]
            raise LookupError(f"{path} needs a subcommand, one of {subs}")
        values = []
        for key, value in options.items():
            definition = next((o for o in definitions if o["name"] == key), None)
            if definition is None:
                raise LookupError(
                    f"{path} has no option {key!r}; it has {[o['name'] for o in definitions]}"
                )
            is_focused = key == focused
            if is_focused and not definition.get("autocomplete"):
                raise LookupError(f"{path} option {key!r} has no autocomplete")
            item: dict[str, Any] = {
                "type": definition["type"],
                "name": key,
                "value": self._option_value(definition, value, resolved, guild, partial=is_focused),
            }
            if is_focused:
                item["focused"] = True
            values.append(item)
        if focused is None:
            missing = [
                o["name"] for o in definitions if o.get("required") and o["name"] not in options
            ]
            if missing:
                raise ValueError(f"{path} needs the required option(s) {missing}")
        elif focused not in options:
            raise ValueError(
                f"the focused option {focused!r} must be in options (with the text typed so far)"
            )
        container["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(
        self,
        definition: Mapping[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild | None,
        *,
        partial: bool,
    ) -> Any:
        kind = definition["type"]
        name = definition["name"]
        if partial:
            return str(value)  # Discord sends the text typed so far
        if kind == STRING:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ValueError(
                    f"option {name!r} must be {low}..{high} characters (the Discord client refuses)"
                )
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
        elif kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"option {name!r} is a number, got {value!r}")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif kind in (USER, MENTIONABLE):
            user = (
                value
                if isinstance(value, FakeUser)
                else next(u for u in self.users.values() if u.id == int(value))
            )
            resolved.setdefault("users", {})[str(user.id)] = user.to_dict()
            if guild is not None and user in guild.members:
                member = user.member_dict(permissions=True)
                del member["user"]
                resolved.setdefault("members", {})[str(user.id)] = member
            return str(user.id)
        else:
            raise NotImplementedError(f"the fake cannot send option type {kind} yet")
        if kind in (INTEGER, NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise ValueError(
                    f"option {name!r} must be within {low}..{high} (the Discord client refuses)"
                )
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}")
        return value

    async def _send_interaction(
        self, payload: dict[str, Any], user: FakeUser, place: Place | None = None
    ) -> InteractionResult:
        if place is not None:
            payload.update(place.envelope(user))
        result = InteractionResult(self, payload, user, place)
        self.interactions[result.id] = result
        await self.dispatch("INTERACTION_CREATE", payload)
        return result

    async def slash(
        self,
        user: FakeUser,
        name: str,
        sub: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        guild: FakeGuild | int | None = _DEFAULT,
        dm: bool = False,
        place: Place | None = None,
        wait: bool = True,
    ) -> InteractionResult:
        """Run ``/name sub option:value…`` as ``user`` (in the default guild, or in DMs;
        ``place``: where a test made, fake_places.py).

        ``sub`` is a subcommand, or "group subcommand". Option values are checked and
        typed from the registered command, as the Discord client does. Returns once the
        bot's first callback arrived (``wait=False``: at once).
        """
        where, channel = self._where(user, guild, dm, place)
        data = self._command_data(name, sub, options or {}, where, None, place)
        result = await self._send_interaction(
            self._envelope(APPLICATION_COMMAND, user, where, channel, data), user, place
        )
        if wait:
            await result.wait_response()
        return result

    async def autocomplete(
        self,
        user: FakeUser,
        name: str,
        sub: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        guild: FakeGuild | int | None = _DEFAULT,
        dm: bool = False,
        place: Place | None = None,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its text in ``options``); return the bot's choices."""
        where, channel = self._where(user, guild, dm, place)
        data = self._command_data(name, sub, options or {}, where, focused, place)
        result = await self._send_interaction(
            self._envelope(AUTOCOMPLETE, user, where, channel, data), user, place
        )
        await result.wait_response()
        assert result.choices is not None
        return result.choices

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str | None = None,
        *,
        label: str | None = None,
        values: Sequence[str] | None = None,
        place: Place | None = None,
        wait: bool = True,
    ) -> InteractionResult:
        """Click a button (or pick ``values`` in a select menu) on a message the bot sent
        (made where its channel is: a place a test made, or ``place=``)."""
        if isinstance(message, int):
            message = self.messages[message]
        if custom_id is None and label is None:
            raise ValueError("click needs a custom_id or a label")
        if message.deleted:
            raise LookupError(f"message {message.id} was deleted")
        component = message.component(custom_id, label=label)
        if component.get("disabled"):
            raise ValueError(
                f"component {component.get('label') or component.get('custom_id')!r} is disabled"
            )
        if component.get("type") == BUTTON and component.get("style") in (5, 6):
            raise ValueError("link and premium buttons send no interaction")
        data: dict[str, Any] = {
            "custom_id": component["custom_id"],
            "component_type": component["type"],
        }
        if component["type"] in SELECT_TYPES:
            chosen = list(values or [])
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(chosen) <= high:
                raise ValueError(f"select {component['custom_id']!r} takes {low}..{high} values")
            if component["type"] == STRING_SELECT:
                offered = [o["value"] for o in component.get("options", [])]
                if any(v not in offered for v in chosen):
                    raise ValueError(f"values {chosen} are not all among the options {offered}")
            data["values"] = chosen
        elif values is not None:
            raise ValueError("values are only for select menus")
        place = place or self.places.get(message.channel_id)
        if place is not None:
            where, channel = place.guild, place.channel
        elif message.guild_id is None:
            where, channel = None, self._dm_channel_dict(user)
        else:
            where = self._guild(message.guild_id)
            channel = where.channel_dict()
        payload = self._envelope(MESSAGE_COMPONENT, user, where, channel, data)
        payload["message"] = message.to_dict()
        result = await self._send_interaction(payload, user, place)
        if wait:
            await result.wait_response()
        return result

    def channel_messages(self, channel_id: int | None = None) -> list[FakeMessage]:
        """Messages the bot has in a channel (default: the first guild's), oldest first."""
        target = self.guild.channel_id if channel_id is None else channel_id
        return [m for m in self.messages.values() if m.channel_id == target and not m.deleted]
