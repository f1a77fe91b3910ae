"""Our digest of Discord's OpenAPI spec: the request schemas of the routes the bot calls.

Discord publishes its API as an OpenAPI 3.1 document (the public repository
``discord/discord-api-spec``, ``specs/openapi.json``). This project does not carry a copy
of that document; this module is our own transcription of the part the bot's requests
touch, written by hand in the document's shape (the same operation paths and component
names, each property with the spec's bounds) so that discord_spec.py validates against
either with the same code:

- what is transcribed: every route the fake Discord serves with a body (discord_spec.py's
  ``ROUTES``), and of each body the properties the bot sends (a property left out is not
  checked, as the spec checks no property it does not name); of each union, the branches
  the bot sends (a message's action rows of buttons and string selects, no Components V2;
  a command's subcommand, string, integer, boolean and user options);
- how it is kept true: ``python tests/discord_bot/discord_spec.py check SPEC`` compares
  every bound written here with the spec's at the same place and fails on a difference
  (run at ``CHECKED_AGAINST``); ``REEL_DISCORD_SPEC=SPEC pytest tests/discord_bot`` runs
  the end-to-end tests against the whole spec instead of this digest.
"""

from __future__ import annotations

from typing import Any, Final

# The commit of discord/discord-api-spec this digest was last compared with ("check").
CHECKED_AGAINST: Final = "74fda0fad044407ea280043a03ffc9bc64c4e49e (2026-07-18)"

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(name: str) -> Schema:
    """A property that is null or the component ``name`` (the spec's oneOf form)."""
    return {"oneOf": [{"type": "null"}, ref(name)]}


def text(max_length: int, min_length: int | None = None, *, null: bool = True) -> Schema:
    schema: Schema = {"type": ["string", "null"] if null else "string"}
    if min_length is not None:
        schema["minLength"] = min_length
    schema["maxLength"] = max_length
    return schema


def array(
    items: Schema, max_items: int, min_items: int | None = None, *, null: bool = True
) -> Schema:
    schema: Schema = {"type": ["array", "null"] if null else "array", "items": items}
    if min_items is not None:
        schema["minItems"] = min_items
    schema["maxItems"] = max_items
    return schema


def kind(value: int, enum_of: str) -> Schema:
    """The ``type`` discriminator of a union's branch (an integer enum of one value)."""
    return {"type": "integer", "enum": [value], "allOf": [ref(enum_of)], "format": "int32"}


def enum_of(*values: int) -> Schema:
    return {"type": "integer", "oneOf": [{"const": v} for v in values], "format": "int32"}


FLAG: Final[Schema] = {"type": ["integer", "null"]}
BOOLEAN: Final[Schema] = {"type": ["boolean", "null"]}
OPTION_NAME: Final[Schema] = text(32, 1, null=False)
OPTION_DESCRIPTION: Final[Schema] = text(100, 1, null=False)


def option(value: int, extra: Schema | None = None) -> Schema:
    """A command option of type ``value``: what every option has, and ``extra``."""
    properties: Schema = {
        "type": kind(value, "ApplicationCommandOptionType"),
        "name": OPTION_NAME,
        "description": OPTION_DESCRIPTION,
        "required": BOOLEAN,
        **(extra or {}),
    }
    return {"type": "object", "properties": properties, "required": ["type", "name", "description"]}


LEAF_OPTIONS: Final = [
    ref("ApplicationCommandBooleanOption"),
    ref("ApplicationCommandIntegerOption"),
    ref("ApplicationCommandStringOption"),
    ref("ApplicationCommandUserOption"),
]

# The message parts every message-bearing body shares (content's bound differs).
MESSAGE_COMPONENTS: Final = array({"oneOf": [ref("ActionRowComponentForMessageRequest")]}, 40)


def message(content_max: int) -> Schema:
    return {
        "type": "object",
        "properties": {
            "content": text(content_max),
            "embeds": array(ref("RichEmbed"), 10),
            "allowed_mentions": nullable("MessageAllowedMentionsRequest"),
            "components": MESSAGE_COMPONENTS,
            "attachments": array(ref("MessageAttachmentRequest"), 10),
            "flags": FLAG,
        },
    }


def uri(max_length: int) -> Schema:
    return {"type": ["string", "null"], "maxLength": max_length, "format": "uri"}


COMPONENTS: Final[dict[str, Schema]] = {
    # ---- application commands (PUT .../commands)
    "ApplicationCommandUpdateRequest": {
        "type": "object",
        "properties": {
            "name": text(32, 1, null=False),
            "description": text(100),
            "options": array(
                {
                    "oneOf": [
                        *LEAF_OPTIONS,
                        ref("ApplicationCommandSubcommandGroupOption"),
                        ref("ApplicationCommandSubcommandOption"),
                    ]
                },
                25,
            ),
            "default_member_permissions": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 18014398509481983,
            },
            "dm_permission": BOOLEAN,
            "contexts": {
                "type": ["array", "null"],
                "items": ref("InteractionContextType"),
                "minItems": 1,
                "uniqueItems": True,
            },
            "integration_types": {
                "type": ["array", "null"],
                "items": ref("ApplicationIntegrationType"),
                "minItems": 1,
                "uniqueItems": True,
            },
            "handler": nullable("ApplicationCommandHandler"),
            "type": nullable("ApplicationCommandType"),
            "id": nullable("SnowflakeType"),
        },
        "required": ["name"],
    },
    "ApplicationCommandSubcommandGroupOption": option(
        2, {"options": array(ref("ApplicationCommandSubcommandOption"), 25)}
    ),
    "ApplicationCommandSubcommandOption": option(
        1, {"options": array({"oneOf": LEAF_OPTIONS}, 25)}
    ),
    "ApplicationCommandBooleanOption": option(5),
    "ApplicationCommandUserOption": option(6),
    "ApplicationCommandStringOption": option(
        3,
        {
            "autocomplete": BOOLEAN,
            "min_length": {"type": ["integer", "null"], "minimum": 0, "maximum": 6000},
            "max_length": {"type": ["integer", "null"], "minimum": 1, "maximum": 6000},
            "choices": array(ref("ApplicationCommandOptionStringChoice"), 25),
        },
    ),
    "ApplicationCommandIntegerOption": option(
        4,
        {
            "autocomplete": BOOLEAN,
            "choices": array(ref("ApplicationCommandOptionIntegerChoice"), 25),
            "min_value": nullable("Int53Type"),
            "max_value": nullable("Int53Type"),
        },
    ),
    "ApplicationCommandOptionStringChoice": {
        "type": "object",
        "properties": {"name": text(100, 1, null=False), "value": text(6000, null=False)},
        "required": ["name", "value"],
    },
    "ApplicationCommandOptionIntegerChoice": {
        "type": "object",
        "properties": {"name": text(100, 1, null=False), "value": ref("Int53Type")},
        "required": ["name", "value"],
    },
    # ---- interaction callbacks (POST /interactions/{id}/{token}/callback)
    "CreateMessageInteractionCallbackRequest": {
        "type": "object",
        "properties": {
            "type": {
                "type": "integer",
                "enum": [4, 5],
                "allOf": [ref("InteractionCallbackTypes")],
                "format": "int32",
            },
            "data": nullable("IncomingWebhookInteractionRequest"),
        },
        "required": ["type"],
    },
    "UpdateMessageInteractionCallbackRequest": {
        "type": "object",
        "properties": {
            "type": {
                "type": "integer",
                "enum": [6, 7],
                "allOf": [ref("InteractionCallbackTypes")],
                "format": "int32",
            },
            "data": nullable("IncomingWebhookUpdateForInteractionCallbackRequestPartial"),
        },
        "required": ["type"],
    },
    "ApplicationCommandAutocompleteCallbackRequest": {
        "type": "object",
        "properties": {
            "type": kind(8, "InteractionCallbackTypes"),
            "data": {
                "anyOf": [
                    ref("InteractionApplicationCommandAutocompleteCallbackIntegerData"),
                    ref("InteractionApplicationCommandAutocompleteCallbackStringData"),
                ]
            },
        },
        "required": ["type", "data"],
    },
    "InteractionApplicationCommandAutocompleteCallbackIntegerData": {
        "type": "object",
        "properties": {
            "choices": array(
                {"oneOf": [{"type": "null"}, ref("ApplicationCommandOptionIntegerChoice")]}, 25
            )
        },
    },
    "InteractionApplicationCommandAutocompleteCallbackStringData": {
        "type": "object",
        "properties": {
            "choices": array(
                {"oneOf": [{"type": "null"}, ref("ApplicationCommandOptionStringChoice")]}, 25
            )
        },
    },
    "ModalInteractionCallbackRequest": {
        "type": "object",
        "properties": {
            "type": kind(9, "InteractionCallbackTypes"),
            "data": ref("ModalInteractionCallbackRequestData"),
        },
        "required": ["type", "data"],
    },
    "ModalInteractionCallbackRequestData": {
        "type": "object",
        "properties": {
            "custom_id": text(100, 1, null=False),
            "title": text(45, 1, null=False),
            "components": array(
                {"oneOf": [ref("ActionRowComponentForModalRequest")]}, 40, 1, null=False
            ),
        },
        "required": ["custom_id", "title", "components"],
    },
    "ActionRowComponentForModalRequest": {
        "type": "object",
        "properties": {
            "type": kind(1, "MessageComponentTypes"),
            "components": array(ref("TextInputComponentForModalRequest"), 5, 1, null=False),
        },
        "required": ["type", "components"],
    },
    "TextInputComponentForModalRequest": {
        "type": "object",
        "properties": {
            "type": kind(4, "MessageComponentTypes"),
            "custom_id": text(100, 1, null=False),
            "label": text(45, 1),
            "value": text(4000),
            "placeholder": text(100),
            "required": BOOLEAN,
            "min_length": {"type": ["integer", "null"], "minimum": 0, "maximum": 4000},
            "max_length": {"type": ["integer", "null"], "minimum": 1, "maximum": 4000},
        },
        "required": ["type", "custom_id", "style"],
    },
    "LaunchActivityInteractionCallbackRequest": {
        "type": "object",
        "properties": {"type": kind(12, "InteractionCallbackTypes")},
        "required": ["type"],
    },
    # ---- messages: a callback's (types 4, 7), a follow-up's, an edit's, a channel's
    "IncomingWebhookInteractionRequest": message(2000),
    "IncomingWebhookUpdateForInteractionCallbackRequestPartial": message(2000),
    "IncomingWebhookRequestPartial": message(2000),
    "IncomingWebhookUpdateRequestPartial": message(2000),
    "MessageCreateRequest": message(4000),
    "MessageEditRequestPartial": message(4000),
    "RichEmbed": {
        "type": "object",
        "properties": {
            "type": text(152133),
            "url": uri(2048),
            "title": text(256),
            "color": {"type": ["integer", "null"], "minimum": 0, "maximum": 16777215},
            "timestamp": {"type": ["string", "null"], "format": "date-time"},
            "description": text(4096),
            "author": nullable("RichEmbedAuthor"),
            "image": nullable("RichEmbedImage"),
            "thumbnail": nullable("RichEmbedThumbnail"),
            "footer": nullable("RichEmbedFooter"),
            "fields": array(ref("RichEmbedField"), 25),
        },
    },
    "RichEmbedField": {
        "type": "object",
        "properties": {
            "name": text(256, null=False),
            "value": text(1024, null=False),
            "inline": BOOLEAN,
        },
        "required": ["name", "value"],
    },
    "RichEmbedFooter": {
        "type": "object",
        "properties": {"text": text(2048), "icon_url": uri(2048)},
    },
    "RichEmbedAuthor": {
        "type": "object",
        "properties": {"name": text(256), "url": uri(2048), "icon_url": uri(2048)},
    },
    "RichEmbedImage": {"type": "object", "properties": {"url": uri(2048)}},
    "RichEmbedThumbnail": {"type": "object", "properties": {"url": uri(2048)}},
    "MessageAllowedMentionsRequest": {
        "type": "object",
        "properties": {
            "parse": {
                "type": ["array", "null"],
                "items": {"oneOf": [{"type": "null"}, ref("AllowedMentionTypes")]},
                "maxItems": 1521,
                "uniqueItems": True,
            },
            "users": {
                "type": ["array", "null"],
                "items": {"oneOf": [{"type": "null"}, ref("SnowflakeType")]},
                "maxItems": 100,
                "uniqueItems": True,
            },
            "roles": {
                "type": ["array", "null"],
                "items": {"oneOf": [{"type": "null"}, ref("SnowflakeType")]},
                "maxItems": 100,
                "uniqueItems": True,
            },
            "replied_user": BOOLEAN,
        },
    },
    "MessageAttachmentRequest": {
        "type": "object",
        "properties": {
            "id": ref("SnowflakeType"),
            "filename": text(1024, 1),
            "description": text(1024),
        },
        "required": ["id"],
    },
    "ActionRowComponentForMessageRequest": {
        "type": "object",
        "properties": {
            "type": kind(1, "MessageComponentTypes"),
            "components": array(
                {
                    "oneOf": [
                        ref("ButtonComponentForMessageRequest"),
                        ref("StringSelectComponentForMessageRequest"),
                    ]
                },
                5,
                1,
                null=False,
            ),
        },
        "required": ["type", "components"],
    },
    "ButtonComponentForMessageRequest": {
        "type": "object",
        "properties": {
            "type": kind(2, "MessageComponentTypes"),
            "custom_id": text(100, 1),
            "style": ref("ButtonStyleTypes"),
            "label": text(80),
            "disabled": BOOLEAN,
            "url": {"type": ["string", "null"], "maxLength": 512, "format": "uri"},
            "emoji": nullable("ComponentEmojiForRequest"),
        },
        "required": ["type", "style"],
    },
    "StringSelectComponentForMessageRequest": {
        "type": "object",
        "properties": {
            "type": kind(3, "MessageComponentTypes"),
            "custom_id": text(100, 1, null=False),
            "placeholder": text(150),
            "min_values": {"type": ["integer", "null"], "minimum": 0, "maximum": 25},
            "max_values": {"type": ["integer", "null"], "minimum": 1, "maximum": 25},
            "disabled": BOOLEAN,
            "options": array(ref("StringSelectOptionForRequest"), 25, 1, null=False),
        },
        "required": ["type", "custom_id", "options"],
    },
    "StringSelectOptionForRequest": {
        "type": "object",
        "properties": {
            "label": text(100, 1, null=False),
            "value": text(100, 1, null=False),
            "description": text(100),
            "default": BOOLEAN,
            "emoji": nullable("ComponentEmojiForRequest"),
        },
        "required": ["label", "value"],
    },
    "ComponentEmojiForRequest": {
        "type": "object",
        "properties": {"id": nullable("SnowflakeType"), "name": text(32, null=False)},
        "required": ["name"],
    },
    # ---- a DM channel (POST /users/@me/channels)
    "CreatePrivateChannelRequest": {
        "type": "object",
        "properties": {"recipient_id": nullable("SnowflakeType")},
    },
    # ---- the scalar types and enumerations
    "Int53Type": {
        "type": "integer",
        "minimum": -9007199254740991,
        "maximum": 9007199254740991,
        "format": "int64",
    },
    "SnowflakeType": {"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "format": "snowflake"},
    "InteractionContextType": enum_of(0, 1, 2),
    "ApplicationIntegrationType": enum_of(0, 1),
    "ApplicationCommandType": enum_of(1, 2, 3, 4),
    "ApplicationCommandHandler": enum_of(1, 2),
    "ApplicationCommandOptionType": enum_of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11),
    "InteractionCallbackTypes": enum_of(1, 4, 5, 6, 7, 8, 9, 12, 13),
    "ButtonStyleTypes": enum_of(1, 2, 3, 4, 5, 6),
    "AllowedMentionTypes": {
        "type": "string",
        "oneOf": [{"const": "users"}, {"const": "roles"}, {"const": "everyone"}],
    },
}

# MessageComponentTypes is a long enumeration; the digest names the types it sends.
COMPONENTS["MessageComponentTypes"] = {"type": "integer", "format": "int32"}


def _json_body(schema: Schema, required: bool = False) -> Schema:
    body: Schema = {"content": {"application/json": {"schema": schema}}}
    if required:
        body["required"] = True
    return {"requestBody": body}


_COMMANDS: Final = _json_body(
    {"type": ["array", "null"], "items": ref("ApplicationCommandUpdateRequest"), "maxItems": 130},
    required=True,
)

PATHS: Final[dict[str, Schema]] = {
    "/applications/{application_id}/commands": {"put": _COMMANDS},
    "/applications/{application_id}/guilds/{guild_id}/commands": {"put": _COMMANDS},
    "/interactions/{interaction_id}/{interaction_token}/callback": {
        "post": _json_body(
            {
                "anyOf": [
                    ref("ApplicationCommandAutocompleteCallbackRequest"),
                    ref("CreateMessageInteractionCallbackRequest"),
                    ref("LaunchActivityInteractionCallbackRequest"),
                    ref("ModalInteractionCallbackRequest"),
                    ref("UpdateMessageInteractionCallbackRequest"),
                ],
                "x-discord-union": "oneOf",
            },
            required=True,
        )
    },
    "/webhooks/{webhook_id}/{webhook_token}": {
        "post": _json_body(
            {
                "anyOf": [
                    ref("IncomingWebhookRequestPartial"),
                    ref("IncomingWebhookUpdateRequestPartial"),
                ],
                "x-discord-union": "oneOf",
            }
        )
    },
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": {
        "patch": _json_body(ref("IncomingWebhookUpdateRequestPartial"))
    },
    "/channels/{channel_id}/messages": {"post": _json_body(ref("MessageCreateRequest"))},
    "/channels/{channel_id}/messages/{message_id}": {
        "patch": _json_body(ref("MessageEditRequestPartial"))
    },
    "/users/@me/channels": {"post": _json_body(ref("CreatePrivateChannelRequest"), required=True)},
}

DIGEST: Final[Schema] = {
    "openapi": "3.1.0",
    "info": {"title": "Our digest of Discord's API, the requests the bot sends", "version": "10"},
    "paths": PATHS,
    "components": {"schemas": COMPONENTS},
}
