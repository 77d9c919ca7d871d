"""Strictness: request bodies checked against Discord's OpenAPI schema and hard limits.

Two layers, both answering 400 / code 50035 "Invalid Form Body" with Discord's
nested ``errors`` object:

* the operation's ``requestBody`` schema from ``openapi.json`` (JSON Schema Draft
  2020-12 through ``referencing``), when the spec file is present;
* the limits the schema does not express (content 2000, embed totals, component
  layout, unique custom_ids, label lengths, option counts).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from referencing import Registry
from referencing.jsonschema import DRAFT202012

JSON = dict[str, Any]
ErrorPath = tuple[str | int, ...]

SPEC_ENV = "DISCORD_API_SPEC"
DEFAULT_SPEC = Path(__file__).resolve().parents[2] / ".." / "shared" / "discord-api-spec"
DEFAULT_SPEC_FILE = DEFAULT_SPEC / "openapi.json"
_SPEC_URI = "urn:discord-openapi"

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
EMBED_FIELDS_MAX = 25
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID_MAX = 100
LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
PLACEHOLDER_MAX = 150
FILE_MAX = 10 * 1024 * 1024
REQUEST_FILES_MAX = 25 * 1024 * 1024
ATTACHMENTS_MAX = 10
SELECT_TYPES = {3, 5, 6, 7, 8}


@dataclass
class DiscordError(Exception):
    """An error answer in Discord's shape: ``{"code", "message", "errors"?}``."""

    status: int
    code: int
    message: str
    errors: JSON | None = None

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data

    def __str__(self) -> str:
        return f"{self.status} code {self.code}: {self.message} {self.errors or ''}".strip()


@dataclass
class FormErrors:
    """Collects (path, code, message) triples and renders Discord's nested ``errors``."""

    items: list[tuple[ErrorPath, str, str]] = field(default_factory=list)

    def add(self, path: ErrorPath, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def nested(self) -> JSON:
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def raise_if_any(self) -> None:
        if self.items:
            raise DiscordError(400, 50035, "Invalid Form Body", self.nested())


def spec_path() -> Path:
    env = os.environ.get(SPEC_ENV)
    return Path(env) if env else DEFAULT_SPEC_FILE


@functools.lru_cache(maxsize=4)
def _load_spec(path: str) -> ApiSchema | None:
    file = Path(path)
    if not file.is_file():
        return None
    with file.open(encoding="utf-8") as fh:
        return ApiSchema(json.load(fh))


def load_spec() -> ApiSchema | None:
    """The OpenAPI schema (cached per path), or None when the file is absent."""
    return _load_spec(str(spec_path()))


def _snowflake_aware_type(validator: Any, types: Any, instance: Any, schema: JSON) -> Iterator[Any]:
    """Discord takes snowflakes as strings or integers in requests (discord.py sends ints
    for ``recipient_id``, ``attachments[].id``...); the spec only says string."""
    if (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    ):
        return
    yield from _BASE_TYPE(validator, types, instance, schema)


_BASE_TYPE = Draft202012Validator.VALIDATORS["type"]
DiscordValidator = validators.extend(  # type: ignore[no-untyped-call]  # untyped in the stubs
    Draft202012Validator, {"type": _snowflake_aware_type}
)


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


class ApiSchema:
    """Validators for each operation's JSON request body, built lazily."""

    def __init__(self, document: JSON) -> None:
        self.document = document
        resource = DRAFT202012.create_resource(document)
        self._registry: Registry[Any] = Registry().with_resource(_SPEC_URI, resource)
        self._validators: dict[tuple[str, str], Any] = {}

    def has_operation(self, method: str, template: str) -> bool:
        return method.lower() in self.document["paths"].get(template, {})

    def validator(self, method: str, template: str) -> Any:
        key = (method.lower(), template)
        if key not in self._validators:
            op = self.document["paths"].get(template, {}).get(key[0], {})
            content = op.get("requestBody", {}).get("content", {})
            if "application/json" not in content:
                self._validators[key] = None
            else:
                ref = _pointer(
                    "paths", template, key[0], "requestBody", "content", "application/json", "schema"
                )
                self._validators[key] = DiscordValidator(
                    {"$ref": f"{_SPEC_URI}#/{ref}"}, registry=self._registry
                )
        return self._validators[key]

    def check(self, method: str, template: str, body: Any, errors: FormErrors) -> None:
        validator = self.validator(method, template)
        if validator is None:
            return
        for err in validator.iter_errors(tolerate_known_gaps(body)):
            best = _deepest(err)
            message = best.message if len(best.message) < 200 else best.message[:200] + "..."
            errors.add(tuple(best.absolute_path), "BASE_TYPE_INVALID", message)


def _deepest(err: Any) -> Any:
    """For anyOf/oneOf failures, the most specific sub-error (as jsonschema's best_match)."""
    from jsonschema.exceptions import best_match

    if err.context:
        return best_match(err.context) or err
    return err


def tolerate_known_gaps(body: Any) -> Any:
    """discord.py sends ``attachments[].id`` as the int 0; the spec wants a string."""
    if not isinstance(body, dict):
        return body

    def fix(msg: JSON) -> None:
        for att in msg.get("attachments") or []:
            if isinstance(att, dict) and isinstance(att.get("id"), int):
                att["id"] = str(att["id"])

    fixed = copy.deepcopy(body)
    fix(fixed)
    if isinstance(fixed.get("data"), dict):
        fix(fixed["data"])
    return fixed


# --------------------------------------------------------------------------- limits


def _too_long(errors: FormErrors, path: ErrorPath, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def embed_text_length(embed: JSON) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for fld in embed.get("fields") or []:
        total += len(fld.get("name") or "") + len(fld.get("value") or "")
    return total


def check_embeds(embeds: Any, errors: FormErrors, prefix: ErrorPath = ()) -> None:
    if not isinstance(embeds, list):
        return
    if len(embeds) > EMBEDS_MAX:
        errors.add((*prefix, "embeds"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        path: ErrorPath = (*prefix, "embeds", i)
        for key, limit in EMBED_LIMITS.items():
            _too_long(errors, (*path, key), embed.get(key), limit)
        _too_long(errors, (*path, "footer", "text"), (embed.get("footer") or {}).get("text"), 2048)
        _too_long(errors, (*path, "author", "name"), (embed.get("author") or {}).get("name"), 256)
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            if isinstance(fld, dict):
                _too_long(errors, (*path, "fields", j, "name"), fld.get("name"), 256)
                _too_long(errors, (*path, "fields", j, "value"), fld.get("value"), 1024)
        total += embed_text_length(embed)
    if total > EMBED_TOTAL_MAX:
        errors.add(
            (*prefix, "embeds"),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}",
        )


def check_components(components: Any, errors: FormErrors, prefix: ErrorPath = ()) -> None:
    if not isinstance(components, list):
        return
    base: ErrorPath = (*prefix, "components")
    if len(components) > ROWS_MAX:
        errors.add(base, "BASE_TYPE_MAX_LENGTH", f"Must be {ROWS_MAX} or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(components):
        if not isinstance(row, dict):
            continue
        if row.get("type") != 1:
            errors.add((*base, i, "type"), "UNION_TYPE_CHOICES", "Top-level must be an action row.")
            continue
        children = row.get("components") or []
        kinds = [c.get("type") for c in children if isinstance(c, dict)]
        selects = sum(1 for k in kinds if k in SELECT_TYPES)
        buttons = sum(1 for k in kinds if k == 2)
        if not children:
            errors.add((*base, i, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more.")
        if selects and (selects > 1 or buttons):
            errors.add(
                (*base, i, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "A select menu must be alone in its action row.",
            )
        if buttons > BUTTONS_PER_ROW:
            errors.add(
                (*base, i, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        for j, comp in enumerate(children):
            if isinstance(comp, dict):
                _check_component(comp, (*base, i, "components", j), seen, errors)


def _check_component(comp: JSON, path: ErrorPath, seen: set[str], errors: FormErrors) -> None:
    kind = comp.get("type")
    custom_id = comp.get("custom_id")
    is_link = kind == 2 and comp.get("style") == 5
    needs_id = kind in SELECT_TYPES or (kind == 2 and not is_link and comp.get("style") != 6)
    bad_id = not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID_MAX
    if needs_id and bad_id:
        errors.add(
            (*path, "custom_id"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {CUSTOM_ID_MAX} in length.",
        )
    if isinstance(custom_id, str):
        if custom_id in seen:
            errors.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Duplicate custom_id")
        seen.add(custom_id)
    if kind == 2:
        _too_long(errors, (*path, "label"), comp.get("label"), LABEL_MAX)
    if kind in SELECT_TYPES:
        _too_long(errors, (*path, "placeholder"), comp.get("placeholder"), PLACEHOLDER_MAX)
    if kind == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            errors.add(
                (*path, "options"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {SELECT_OPTIONS_MAX} in length.",
            )
        for k, opt in enumerate(options):
            if isinstance(opt, dict):
                _too_long(errors, (*path, "options", k, "label"), opt.get("label"), 100)
                _too_long(errors, (*path, "options", k, "value"), opt.get("value"), 100)


def check_message(body: Any, errors: FormErrors, prefix: ErrorPath = ()) -> None:
    """Limits of a message body (create/edit, interaction data, webhook execute)."""
    if not isinstance(body, dict):
        return
    _too_long(errors, (*prefix, "content"), body.get("content"), CONTENT_MAX)
    check_embeds(body.get("embeds"), errors, prefix)
    check_components(body.get("components"), errors, prefix)


COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
COMMANDS_MAX = 100


def check_commands(commands: Any, errors: FormErrors) -> None:
    """Bulk command sync: chat-input names are lowercase ``[-_\\w]{1,32}``, descriptions
    1-100, at most 25 options and 25 choices (rules the schema leaves out)."""
    if not isinstance(commands, list):
        return
    if len(commands) > COMMANDS_MAX:
        errors.add((), "BASE_TYPE_MAX_LENGTH", f"Must be {COMMANDS_MAX} or fewer in length.")
    for i, cmd in enumerate(commands):
        if isinstance(cmd, dict) and cmd.get("type", 1) == 1:
            _check_command_like(cmd, (i,), errors)


def _check_command_like(cmd: JSON, path: ErrorPath, errors: FormErrors) -> None:
    name = cmd.get("name")
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or name != name.lower():
        errors.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    desc = cmd.get("description")
    if not isinstance(desc, str) or not 1 <= len(desc) <= 100:
        errors.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    options = cmd.get("options") or []
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for j, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        _check_command_like(opt, (*path, "options", j), errors)
        if len(opt.get("choices") or []) > 25:
            errors.add((*path, "options", j, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")


def check_files(files: list[tuple[str, str, bytes]]) -> None:
    if len(files) > ATTACHMENTS_MAX:
        errors = FormErrors()
        errors.add(("files",), "BASE_TYPE_MAX_LENGTH", f"Must be {ATTACHMENTS_MAX} or fewer in length.")
        errors.raise_if_any()
    total = 0
    for _name, _ctype, data in files:
        total += len(data)
        if len(data) > FILE_MAX:
            raise DiscordError(413, 40005, "Request entity too large")
    if total > REQUEST_FILES_MAX:
        raise DiscordError(413, 40005, "Request entity too large")


def check_attachments(embeds: list[JSON], filenames: list[str]) -> None:
    """A message's attachments after a create or an edit: at most 10, and every ``attachment://name``
    that an embed's image or thumbnail names must be one of them (stricter than Discord, which
    silently shows no image: a bot whose picture vanished fails its test instead)."""
    errors = FormErrors()
    if len(filenames) > ATTACHMENTS_MAX:
        errors.add(("attachments",), "BASE_TYPE_MAX_LENGTH", f"Must be {ATTACHMENTS_MAX} or fewer in length.")
    for i, embed in enumerate(embeds):
        for key in ("image", "thumbnail"):
            url = (embed.get(key) or {}).get("url") if isinstance(embed, dict) else None
            if isinstance(url, str) and url.startswith("attachment://") and url[13:] not in filenames:
                errors.add(("embeds", i, key, "url"), "ATTACHMENT_NOT_FOUND",
                           f"No attachment named {url[13:]!r} in this message.")
    errors.raise_if_any()


def iter_error_codes(errors: JSON) -> Iterator[str]:
    """All error codes in a nested ``errors`` object (handy in tests)."""
    for key, value in errors.items():
        if key == "_errors":
            for item in value:
                yield item["code"]
        elif isinstance(value, dict):
            yield from iter_error_codes(value)
