"""Where an interaction is made, for the fake Discord (issue 61, "Play anywhere").

Discord lets a player add an app to their own account (a *user install*), beside a
server's admin adding it to a server (a *guild install*); its commands then work in the
player's DMs, in group DMs and in any server, even one the bot is not in. An interaction
says where it is made: ``context`` (0 a server, 1 the bot's DM, 2 another DM or a group
DM), ``authorizing_integration_owners`` (``{"0": guild_id}`` for a guild install, ``"0"``
in the bot's DM; ``{"1": user_id}`` for a user install), ``app_permissions``, and its
``channel`` (a group DM is channel type 3).

A :class:`Place` is one such where, made by the fake's test side (``FakeDiscord.server``,
``foreign_server``, ``group_dm``, ``bot_dm``) and passed to ``slash``/``autocomplete``/
``click`` as ``place=``. Where the bot is not a member (a user install in a server it is
not in, a group DM), the fake refuses what Discord refuses (DISCORD_WIRE.md, "User-installed
apps"):

- a channel read, a channel message's post or edit: 403, code 50001 Missing Access (only
  the interaction's callback and its token's webhook routes work there);
- a sixth follow-up on one interaction owned by a user install alone: 400, code 40094;
- without Use External Apps (``1 << 50``) in the channel, every answer is shown to the
  invoking player alone: the fake makes it ephemeral (``FakeMessage.made_ephemeral``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fake_discord import FakeGuild, FakeUser

# Installation types (`integration_types`, the keys of `authorizing_integration_owners`)
GUILD_INSTALL, USER_INSTALL = 0, 1
# Interaction contexts
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
# Channel types
GUILD_TEXT, DM, GROUP_DM = 0, 1, 3

USE_EXTERNAL_APPS = 1 << 50
"""Lets a member's user-installed apps answer publicly in that channel (Discord: "when
disabled, users will still be allowed to use their apps but the responses will be
ephemeral"; it applies only to apps not also installed to the server)."""
EVERY_PERMISSION = (1 << 50) - 1  # the fake's members' permissions in the bot's server
EXTERNAL_APP_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16)
"""``app_permissions`` where the bot is not a member: View Channel, Send Messages, Embed
Links, Attach Files, Read Message History, what an interaction's answers may use (an
approximation: Discord computes it from the channel; the bot reads none of it)."""

MISSING_ACCESS = 50001  # 403: a channel the bot cannot see
TOO_MANY_FOLLOWUPS = 40094
"""400: an interaction owned by a user install alone takes at most 5 follow-ups
(DISCORD_WIRE.md; Discord's message below)."""
TOO_MANY_FOLLOWUPS_MESSAGE = "This interaction has hit the maximum number of follow up messages"
USER_INSTALL_FOLLOWUPS_MAX = 5


@dataclass(eq=False)
class Place:
    """Where an interaction is made, and how the app is installed there."""

    context: int
    installs: frozenset[int]
    channel: dict[str, Any]
    members: list[FakeUser]  # who may act here: a server's members, a DM's recipients
    guild: FakeGuild | None = None  # the server (the bot's or another), None in DMs
    bot_is_member: bool = True  # the bot can read and post in the channel
    external_apps: bool = True  # the player's Use External Apps here
    name: str = ""

    @property
    def channel_id(self) -> int:
        return int(self.channel["id"])

    @property
    def user_install_only(self) -> bool:
        """Owned by the player's own install alone: the app is not installed here."""
        return self.installs == frozenset({USER_INSTALL})

    @property
    def limits_followups(self) -> bool:
        """At most 5 follow-ups an interaction (Discord: a user-installed app's
        interaction where it "isn't installed in the server"; the fake applies it where
        the bot is not a member, the places DISCORD_WIRE.md names)."""
        return self.user_install_only and not self.bot_is_member

    @property
    def forces_ephemeral(self) -> bool:
        """Every answer private: the player lacks Use External Apps, the app is not
        installed here (never in the bot's own DM, where the permission has no sense)."""
        return self.user_install_only and self.context != BOT_DM_CONTEXT and not self.external_apps

    def with_external_apps(self, on: bool) -> Place:
        """The same channel, the player's Use External Apps ``on`` or off."""
        return dataclasses.replace(self, external_apps=on)

    def owners(self, user: FakeUser) -> dict[str, str]:
        """``authorizing_integration_owners``: the guild install's server ("0" in the
        bot's DM), the user install's user."""
        owners: dict[str, str] = {}
        if GUILD_INSTALL in self.installs:
            owners[str(GUILD_INSTALL)] = str(self.guild.id) if self.guild is not None else "0"
        if USER_INSTALL in self.installs:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def admit(self, user: FakeUser) -> None:
        """Refuse a user who is not here (LookupError): not a member, not a recipient."""
        if user not in self.members:
            raise LookupError(f"{user.name} is not in {self.name or self.channel_id}")

    def member_permissions(self) -> int:
        return EVERY_PERMISSION | (USE_EXTERNAL_APPS if self.external_apps else 0)

    def envelope(self, user: FakeUser) -> dict[str, Any]:
        """The fields of an interaction made here by ``user`` (over the fake's defaults)."""
        self.admit(user)
        channel = dict(self.channel)
        if not self.bot_is_member:  # the invoking user's permissions in the channel
            channel["permissions"] = str(self.member_permissions())
        fields: dict[str, Any] = {
            "context": self.context,
            "authorizing_integration_owners": self.owners(user),
            "app_permissions": str(
                EVERY_PERMISSION if self.bot_is_member else EXTERNAL_APP_PERMISSIONS
            ),
            "channel": channel,
            "channel_id": channel["id"],
        }
        if self.guild is None:
            fields["user"] = user.to_dict()
            return fields
        member = user.member_dict()
        member["permissions"] = str(self.member_permissions())
        fields.update(
            guild_id=str(self.guild.id),
            # a partial guild: all Discord sends of a server the bot is not in
            guild={"id": str(self.guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=member,
        )
        return fields

    def offers(self, command: dict[str, Any]) -> bool:
        """Whether a global command is offered here (Discord's defaults: a command that
        declares no installs is a guild install's; no contexts, every context)."""
        installs = set(command.get("integration_types") or [GUILD_INSTALL])
        contexts = command.get("contexts") or [
            GUILD_CONTEXT,
            BOT_DM_CONTEXT,
            PRIVATE_CHANNEL_CONTEXT,
        ]
        if self.context == BOT_DM_CONTEXT and command.get("dm_permission") is False:
            return False
        return self.context in contexts and bool(installs & self.installs)


def group_dm_channel(channel_id: int, owner: FakeUser, users: list[FakeUser]) -> dict[str, Any]:
    """A group DM the bot is not in (channel type 3)."""
    return {
        "id": str(channel_id),
        "type": GROUP_DM,
        "name": None,
        "icon": None,
        "owner_id": str(owner.id),
        "last_message_id": None,
        "flags": 0,
        "recipients": [user.to_dict() for user in users],
    }
