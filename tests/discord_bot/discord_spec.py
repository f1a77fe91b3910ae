"""Every REST request the bot sends, checked against Discord's OpenAPI specification.

Discord publishes its API as an OpenAPI 3.1 document (the public repository
``discord/discord-api-spec``, ``specs/openapi.json``). The fake Discord
(fake_discord.py) hands each request body it reads to :meth:`SpecCheck.errors`, which
validates it against the request schema of the spec's operation for that route
(``ROUTES``) with ``jsonschema`` (Draft 2020-12, the dialect of OpenAPI 3.1; its
``$ref``s resolved by ``referencing`` within the document). A breach is a violation the
test fails on, and the fake answers it as Discord does: 400 Invalid Form Body.

Which document: ``REEL_DISCORD_SPEC`` names a copy of Discord's whole ``openapi.json``
(a newer spec is one variable away); without it, our digest of it (wire_digest.py: the
request schemas the bot's requests touch, transcribed with their bounds) is used.
``python tests/discord_bot/discord_spec.py check SPEC`` compares that digest with a copy
of the spec, bound for bound, and ``... validate LOG SPEC`` checks the requests a test run
logged (``REEL_WIRE_LOG``) against it.

Where Discord's documented behaviour and the spec differ, ``DEVIATIONS`` says so, once.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from wire_digest import CHECKED_AGAINST, DIGEST

SPEC_ENV = "REEL_DISCORD_SPEC"
WIRE_LOG_ENV = "REEL_WIRE_LOG"  # a file each request body is appended to, a JSON line each
DOCUMENT_URI = "urn:discord:openapi"

# The fake's routes (below /api/v10) that carry a body, and the spec's path of each.
ROUTES: Mapping[tuple[str, str], str] = {
    ("PUT", "/applications/{app}/commands"): "/applications/{application_id}/commands",
    (
        "PUT",
        "/applications/{app}/guilds/{guild}/commands",
    ): "/applications/{application_id}/guilds/{guild_id}/commands",
    (
        "POST",
        "/interactions/{interaction}/{token}/callback",
    ): "/interactions/{interaction_id}/{interaction_token}/callback",
    ("POST", "/webhooks/{app}/{token}"): "/webhooks/{webhook_id}/{webhook_token}",
    (
        "PATCH",
        "/webhooks/{app}/{token}/messages/{message}",
    ): "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ("POST", "/channels/{channel}/messages"): "/channels/{channel_id}/messages",
    (
        "PATCH",
        "/channels/{channel}/messages/{message}",
    ): "/channels/{channel_id}/messages/{message_id}",
    ("POST", "/users/@me/channels"): "/users/@me/channels",
}

# Routes the bot's side calls that Discord's spec does not describe, and why they are not
# checked: the web board's OAuth2 code exchange (bot/web/discord_api.py) is a form post
# to OAuth2's token endpoint, outside the spec's paths.
UNDESCRIBED: Mapping[tuple[str, str], str] = {
    ("POST", "/oauth2/token"): "OAuth2's token endpoint is not in Discord's OpenAPI spec",
}


# Where discord.py sends what Discord's documentation and servers accept but the spec's
# schema does not, each said once and allowed exactly: the body is brought to the spec's
# form at these places (``conformed``) before it is validated.
DEVIATIONS: Mapping[str, str] = {
    # discord.py 2.7 sends a command's permissions as a string of digits ("8"), the form
    # Discord's documentation gives the field and its answers carry; the spec types it as
    # an integer (the spec's README: "Our API accepts strings for int fields if they are
    # parseable as ints").
    "default_member_permissions": "a string of digits where the spec says integer",
    # discord.py numbers the attachments of a message it uploads 0, 1, ... (the index of
    # each file's files[n] part) as JSON integers; the spec types an attachment's id as a
    # snowflake string. Discord's documentation: the id of a new attachment matches its
    # files[n] part.
    "attachments[].id": "a non-negative integer where the spec says a snowflake string",
    # discord.py opens a DM (User.create_dm) with the user's id as a JSON integer; the spec
    # types recipient_id as a snowflake string. Discord takes a snowflake as either.
    "recipient_id": "a non-negative integer where the spec says a snowflake string",
}


def conformed(body: object) -> object:
    """``body`` with the values of ``DEVIATIONS`` in the spec's form; nothing else changed."""
    if isinstance(body, list):
        return [conformed(item) for item in body]
    if not isinstance(body, dict):
        return body
    out = {key: conformed(value) for key, value in body.items()}
    permissions = out.get("default_member_permissions")
    if isinstance(permissions, str) and permissions.isdigit():
        out["default_member_permissions"] = int(permissions)
    recipient = out.get("recipient_id")
    if isinstance(recipient, int) and not isinstance(recipient, bool) and recipient >= 0:
        out["recipient_id"] = str(recipient)
    attachments = out.get("attachments")
    if isinstance(attachments, list):
        out["attachments"] = [
            {**a, "id": str(a["id"])}
            if isinstance(a, dict) and isinstance(a.get("id"), int) and a["id"] >= 0
            else a
            for a in attachments
        ]
    return out


@dataclass(frozen=True, slots=True)
class SpecError:
    """One breach of the spec: where in the body, and what."""

    path: tuple[str | int, ...]
    message: str

    @classmethod
    def of(cls, error: ValidationError) -> SpecError:
        shown = json.dumps(error.instance)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        return cls(
            tuple(error.absolute_path), f"{shown} fails {error.validator}={error.validator_value!r}"
        )

    def __str__(self) -> str:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"{where or '(body)'}: {self.message}"


class SpecCheck:
    """Validates request bodies against one OpenAPI document's request schemas."""

    def __init__(self, document: Mapping[str, Any], source: str) -> None:
        self.source = source
        resource: Resource[Any] = DRAFT202012.create_resource(dict(document))
        self._registry: Registry[Any] = Registry().with_resource(DOCUMENT_URI, resource)
        self._paths: Mapping[str, Any] = document["paths"]

    @classmethod
    def load(cls, path: Path) -> SpecCheck:
        return cls(json.loads(path.read_text()), str(path))

    def schema(self, method: str, route: str) -> dict[str, Any] | None:
        """The JSON request schema of the spec's operation for the fake's ``route``."""
        path = ROUTES.get((method, route))
        if path is None:
            return None
        if method.lower() not in self._paths.get(path, {}):
            raise LookupError(f"{self.source} has no {method} {path}")
        pointer = f"/paths/{_escape(path)}/{method.lower()}/requestBody/content/application~1json"
        return {"$ref": f"{DOCUMENT_URI}#{pointer}/schema"}

    def errors(self, method: str, route: str, body: object) -> list[SpecError]:
        """What is wrong with ``body`` sent to ``route`` (a multipart body's
        ``payload_json``); empty when it conforms or the route has no schema here."""
        schema = self.schema(method, route)
        if schema is None:
            return []
        validator = Draft202012Validator(schema, registry=self._registry)
        found = list(validator.iter_errors(conformed(body)))
        if not found:
            return []
        return [SpecError.of(_deepest(error)) for error in found]


def _escape(path: str) -> str:
    """``path`` as one JSON pointer token."""
    return path.replace("~", "~0").replace("/", "~1")


def _deepest(error: ValidationError) -> ValidationError:
    """Below a oneOf/anyOf that failed, the failure in the branch the sender meant: not a
    branch of another JSON type, nor one whose ``type`` field (the discriminator of
    Discord's unions) refused the body; of those, the one with the fewest failures."""
    while error.context:
        branches: dict[object, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        depth = len(error.absolute_path)
        meant = min(
            branches.values(),
            key=lambda subs: (_refused(subs, depth), _null(subs), len(subs)),
        )
        error = next((sub for sub in meant if sub.context), meant[0])
    return error


def _null(branch: list[ValidationError]) -> bool:
    """Whether a union's branch is its ``null`` (the last one to blame)."""
    return all(e.validator == "type" and e.validator_value == "null" for e in branch)


def _refused(branch: list[ValidationError], depth: int) -> bool:
    """Whether a union's branch refused a body at ``depth`` for its kind, not its content."""
    return any(
        (e.validator == "type" and len(e.absolute_path) == depth)
        or (
            e.validator in ("enum", "const")
            and len(e.absolute_path) == depth + 1
            and e.absolute_path[-1] == "type"
        )
        for e in branch
    )


@cache
def spec_check() -> SpecCheck:
    """The check the fake uses: Discord's whole spec from ``REEL_DISCORD_SPEC``, else our
    digest of it."""
    named = os.environ.get(SPEC_ENV)
    if named:
        return SpecCheck.load(Path(named))
    return SpecCheck(DIGEST, f"our digest of Discord's spec at {CHECKED_AGAINST[:12]}")


def log_wire(method: str, route: str, body: object) -> None:
    """Append the request to ``REEL_WIRE_LOG``'s file, when it is set (for ``check``)."""
    named = os.environ.get(WIRE_LOG_ENV)
    if named:
        line = json.dumps({"method": method, "route": route, "body": body}, default=repr)
        with open(named, "a", encoding="utf-8") as log:
            log.write(line + "\n")


# ------------------------------------------------------------------ the digest, checked

# The keywords compared as they are (a bound, a type); the others hold schemas, compared
# one by one (properties, items, the branches of a union) or are annotations.
BOUNDS: Final = frozenset(
    {
        "type",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "pattern",
        "enum",
        "const",
        "required",
        "format",
        "maxProperties",
    }
)
UNIONS: Final = ("oneOf", "anyOf", "allOf")


def digest_differences(digest: Mapping[str, Any], spec: Mapping[str, Any]) -> list[str]:
    """Where the digest says other than the spec: each schema the digest names compared with
    the spec's at the same place. Every bound the spec sets on a schema the digest names
    must be in the digest, the same; a property or a union's branch the digest leaves out
    is not a difference (it is not sent)."""
    problems: list[str] = []
    for path, operations in digest["paths"].items():
        for method, operation in operations.items():
            ours = operation["requestBody"]["content"]["application/json"]["schema"]
            try:
                theirs = spec["paths"][path][method]["requestBody"]["content"]
                theirs = theirs["application/json"]["schema"]
            except KeyError:
                problems.append(f"{method.upper()} {path}: not in the spec")
                continue
            _compare(ours, theirs, f"{method.upper()} {path}", problems)
    schemas = spec["components"]["schemas"]
    for name, ours in digest["components"]["schemas"].items():
        if name not in schemas:
            problems.append(f"{name}: not in the spec")
        else:
            _compare(ours, schemas[name], name, problems)
    return problems


def _compare(ours: Any, theirs: Any, where: str, problems: list[str]) -> None:
    if not isinstance(ours, dict) or not isinstance(theirs, dict):
        if ours != theirs:
            problems.append(f"{where}: {ours!r} here, {theirs!r} in the spec")
        return
    if "$ref" in ours or "$ref" in theirs:
        if ours.get("$ref") != theirs.get("$ref"):
            problems.append(f"{where}: $ref {ours.get('$ref')} here, {theirs.get('$ref')} there")
        return
    for key in BOUNDS & (ours.keys() | theirs.keys()):
        if key == "format" and key not in ours:
            continue  # an annotation, not a bound: the digest may leave it out
        mine, spec_value = ours.get(key), theirs.get(key)
        if key == "required":
            mine, spec_value = sorted(mine or []), sorted(spec_value or [])
        if mine != spec_value:
            problems.append(f"{where}: {key} {mine!r} here, {spec_value!r} in the spec")
    for name, schema in ours.get("properties", {}).items():
        if name not in theirs.get("properties", {}):
            problems.append(f"{where}.{name}: no such property in the spec")
        else:
            _compare(schema, theirs["properties"][name], f"{where}.{name}", problems)
    if "items" in ours:
        _compare(ours["items"], theirs.get("items"), f"{where}[]", problems)
    for union in UNIONS:
        theirs_branches = [_branch_key(b) for b in theirs.get(union, [])]
        for branch in ours.get(union, []):
            if _branch_key(branch) not in theirs_branches:
                problems.append(f"{where}: {union} branch {branch!r} not in the spec")


def _branch_key(branch: Mapping[str, Any]) -> object:
    """A union's branch by what it is: a $ref, a const, or a type."""
    for key in ("$ref", "const", "type"):
        if key in branch:
            return (key, json.dumps(branch[key]))
    return json.dumps(branch, sort_keys=True)


def main(argv: list[str]) -> int:
    """``check SPEC``: the digest against a copy of Discord's spec. ``validate LOG [SPEC]``:
    the requests of a test run's wire log (``REEL_WIRE_LOG``) against the spec (default:
    the digest)."""
    if len(argv) == 2 and argv[0] == "check":
        spec = json.loads(Path(argv[1]).read_text())
        problems = digest_differences(DIGEST, spec)
        for problem in problems:
            print(problem)
        print(f"{len(problems)} differences between the digest and {argv[1]}")
        return 1 if problems else 0
    if argv[:1] == ["validate"] and len(argv) in (2, 3):
        check = SpecCheck.load(Path(argv[2])) if len(argv) == 3 else spec_check()
        lines = Path(argv[1]).read_text().splitlines()
        refused = 0
        for line in lines:
            request = json.loads(line)
            errors = check.errors(request["method"], request["route"], request["body"])
            refused += bool(errors)
            for error in errors:
                print(f"{request['method']} {request['route']}: {error}")
        print(f"{len(lines)} requests, {refused} refused by {check.source}")
        return 1 if refused else 0
    print(__doc__)
    print("usage: discord_spec.py check SPEC | validate WIRE_LOG [SPEC]")
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
