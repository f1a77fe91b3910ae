"""The page's side of the wire, written from ``wire.py``: ``web/src/wire.ts``.

``python -m bot.web.wire_ts`` (from the repository's root) writes the TypeScript
interfaces of every frame, request and answer ``wire.py`` defines, its shared constants,
and ``frameProblem``, the guard the page runs on every frame it receives (an object, of a
known type, with its required fields there and each field of the right kind);
``--check`` writes nothing and fails when the file differs from a fresh one, as
``.ci/run`` does. The same definitions give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import (
    Any,
    Final,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from . import wire

WIRE_TS: Final = Path(__file__).resolve().parents[2] / "web" / "src" / "wire.ts"
"""Where the page's source keeps it (in a checkout; an installed package has no web/)."""
SAFE_INTEGER: Final = 2**53 - 1  # past it, a TypeScript constant is a bigint
HEADER: Final = """\
// Generated from bot/web/wire.py by `python -m bot.web.wire_ts`: do not edit.
// To change the wire, change bot/web/wire.py, run `python -m bot.web.wire_ts` from the
// repository's root, then `npm run build` in web/ (.ci/run fails when this file differs).
"""
DEFINED: Final = (
    *wire.FRAMES,
    wire.ApiAnswer,
    wire.ActivityConfig,
    wire.SignedIn,
    *wire.REQUESTS,
    wire.SignInRequest,
)
"""The definitions written out, in this order (each after the ones it holds)."""


def render() -> str:
    """The whole of ``wire.ts``."""
    parts = [HEADER, _constants(), _interfaces(), _unions(), _guard()]
    return "\n".join(parts)


def _constants() -> str:
    lines = []
    for name in wire.SHARED:
        lines.append(f"export const {name} = {_constant(getattr(wire, name))};")
    return "\n".join(lines) + "\n"


def _constant(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) <= SAFE_INTEGER else f"{value}n"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple):
        return "[" + ", ".join(_constant(item) for item in value) + "] as const"
    raise TypeError(f"wire_ts can't write the constant {value!r}")


def _held(kind: Any) -> Iterator[type]:
    """The definitions (TypedDict) ``kind`` holds, at any depth."""
    if is_typeddict(kind):
        yield kind
        return
    for arg in get_args(kind):
        if not isinstance(arg, str):  # (a Literal's values)
            yield from _held(arg)


def _ordered() -> list[type]:
    """Every definition to write, each after those it holds."""
    done: list[type] = []

    def visit(kind: type) -> None:
        if kind in done:
            return
        for field in _fields(kind).values():
            for held in _held(field[1]):
                visit(held)
        done.append(kind)

    for kind in DEFINED:
        visit(kind)
    return done


def _fields(kind: type) -> dict[str, tuple[bool, Any]]:
    """The fields of a TypedDict (its bases' too), ``type`` first: required, and kind."""
    hints = get_type_hints(kind, include_extras=True)
    fields = {}
    for name in sorted(hints, key=lambda name: name != "type"):
        hint, required = hints[name], name in kind.__required_keys__  # type: ignore[attr-defined]
        if get_origin(hint) in (Required, NotRequired):
            hint = get_args(hint)[0]
        fields[name] = (required, hint)
    return fields


def _interfaces() -> str:
    blocks = []
    for kind in _ordered():
        doc = (kind.__doc__ or "").strip()
        head = ""
        if doc and not doc.startswith(f"{kind.__name__}("):  # (not TypedDict's own)
            head = "/** " + " ".join(doc.split()) + " */\n"
        lines = [f"{head}export interface {kind.__name__} {{"]
        for name, (required, hint) in _fields(kind).items():
            lines.append(f"  {name}{'' if required else '?'}: {_ts(hint)};")
        blocks.append("\n".join(lines) + "\n}\n")
    return "\n".join(blocks)


def _ts(kind: Any) -> str:
    """The TypeScript type of a field of kind ``kind``."""
    if is_typeddict(kind):
        return str(kind.__name__)
    if kind is wire.Frame:
        return "Frame"
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        return " | ".join(_ts(arg) for arg in args)
    if origin is Literal:
        return " | ".join(json.dumps(arg) for arg in args)
    if origin is list:
        item = _ts(args[0])
        return f"({item})[]" if " | " in item else f"{item}[]"
    if origin is dict:
        return f"Record<{_ts(args[0])}, {_ts(args[1])}>"
    names = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
    if kind in names:
        return names[kind]
    raise TypeError(f"wire_ts can't write the type {kind!r}")


def _unions() -> str:
    frames = " | ".join(kind.__name__ for kind in wire.FRAMES)
    requests = " | ".join(kind.__name__ for kind in wire.REQUESTS)
    return (
        "/** Every frame the server sends. */\n"
        f"export type Frame = {frames};\n"
        "/** A request's id, which its answer's frames carry back. */\n"
        'export type RequestId = BoardFrame["id"];\n'
        "/** Every request a page may send. */\n"
        f"export type WireRequest = {requests};\n"
    )


def _kinds(kind: Any) -> list[str]:
    """The JSON kinds a value of ``kind`` may be (what the page's guard checks)."""
    if is_typeddict(kind) or get_origin(kind) is dict:
        return ["object"]
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, types.UnionType):
        return sorted({found for arg in args for found in _kinds(arg)})
    if origin is Literal:
        return sorted({_kinds(type(arg))[0] for arg in args})
    if origin is list:
        return ["array"]
    names = {str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}
    return [names[kind]]


GUARD: Final = """\
type Kind = "string" | "number" | "boolean" | "null" | "array" | "object";

function kindOf(value: unknown): Kind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const kind = typeof value;
  return kind === "string" || kind === "number" || kind === "boolean" ? kind : "object";
}

/** Why ``value`` (a message, parsed) is no frame the server defines, or null when it is
 * one: an object, of a known type, with its required fields, each field of its kind. */
export function frameProblem(value: unknown): string | null {
  if (kindOf(value) !== "object") return `not an object but ${kindOf(value)}`;
  const frame = value as Record<string, unknown>;
  const type = frame.type;
  if (typeof type !== "string" || !Object.hasOwn(FRAME_FIELDS, type)) {
    return `no frame of type ${JSON.stringify(type)}`;
  }
  for (const [name, [required, kinds]] of Object.entries(FRAME_FIELDS[type as Frame["type"]])) {
    if (!Object.hasOwn(frame, name)) {
      if (required) return `${type} frame without its ${name}`;
    } else if (!kinds.includes(kindOf(frame[name]))) {
      return `${type} frame whose ${name} is ${kindOf(frame[name])}, not ${kinds.join(" or ")}`;
    }
  }
  return null;
}
"""


def _guard() -> str:
    lines = [
        "",
        "/** Each frame's fields (``type`` aside): required, and the JSON kinds it takes. */",
        'const FRAME_FIELDS: Record<Frame["type"], Record<string, readonly [boolean, readonly Kind[]]>> = {',  # noqa: E501
    ]
    for kind in wire.FRAMES:
        fields = _fields(kind)
        (name,) = get_args(fields.pop("type")[1])
        shown = ", ".join(
            f"{field}: [{'true' if required else 'false'}, {json.dumps(_kinds(hint))}]"
            for field, (required, hint) in fields.items()
        )
        lines.append(f"  {json.dumps(name)}: {{ {shown} }},")
    return GUARD + "\n".join(lines) + "\n};\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.web.wire_ts", description=__doc__)
    parser.add_argument("--out", type=Path, default=WIRE_TS, help="default: %(default)s")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if the file differs"
    )
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        found = args.out.read_text(encoding="utf-8") if args.out.exists() else None
        if found != text:
            print(f"{args.out} differs from bot/web/wire.py: run python -m bot.web.wire_ts")
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
