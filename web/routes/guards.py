"""What a request is checked for before it acts: its body (size, JSON), its origin (a page of
another site), and the client's address that the limits of web.quotas count against.

Each refuses with web.tables.Refused, which the app answers with a 4xx and a sentence, having
changed nothing.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

from starlette.requests import Request

from ..i18n import words
from ..tables import Refused

MAX_BODY = 16_384  # an action is a few bytes, a new table a few hundred


def client_address(scope: Any) -> str:
    """The client's address (uvicorn puts there the one a proxy named by `serve --proxy` forwards)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


async def read_body(request: Request) -> bytes:
    """The request's body, refused with 413 past MAX_BODY bytes (read no further)."""
    declared = request.headers.get("content-length")
    if declared is not None and not (declared.isascii() and declared.isdigit()):
        raise Refused(400, words("refused.length"))
    if declared is not None and int(declared) > MAX_BODY:
        raise Refused(413, words("refused.body", n=MAX_BODY))
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise Refused(413, words("refused.body", n=MAX_BODY))
    return bytes(data)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object; 400 for anything else (400 or 413 as read_body)."""
    body = await read_body(request)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, words("refused.not_json")) from None
    if not isinstance(data, dict):
        raise Refused(400, words("refused.not_object"))
    return data


def same_site(request: Request) -> None:
    """Refuse a POST that a page of another site makes a browser send (it shows its Origin, or
    "null" from a sandboxed frame)."""
    origin = request.headers.get("origin")
    if origin is not None and (origin == "null" or urllib.parse.urlsplit(origin).netloc != request.headers.get("host")):
        raise Refused(403, words("refused.other_site"))
