"""The variants' reference sheets (``GET /rules/SPEC/LANG``), in en, fr, nl or sr.

A sheet is a whole HTML document with its own inline style and embedded fonts, so it gets a
Content-Security-Policy of its own (:func:`sheet_csp`) in place of the pages' one: that style
by its hash, fonts from data: URLs, and no script at all.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from compiler.sheets.plurals import LANGUAGES

from ..i18n import words
from .context import server_of
from .errors import language, page_error


def sheet_csp(html_text: str) -> str:
    """A policy for a reference sheet: its own <style> elements, allowed by their hashes, fonts
    from data: URLs (the sheet embeds its fonts), and nothing else: no script."""
    hashes = []
    for body in re.findall(r"<style[^>]*>(.*?)</style>", html_text, flags=re.S):
        hashes.append("'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'")
    return (
        f"default-src 'none'; style-src {' '.join(hashes) or chr(39) + 'none' + chr(39)}; font-src data:; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
    )


async def rules(request: Request) -> Response:
    """A variant's reference sheet in one language, rendered off the event loop (a first render
    takes a while; the variant keeps it)."""
    server = server_of(request)
    variant = server.variants.get(request.path_params["spec"])
    lang = request.path_params["lang"]
    if variant is None or lang not in LANGUAGES:
        return page_error(server.env, 404, words("refused.no_sheet"), lang=language(request))
    text = await asyncio.to_thread(variant.sheet, lang)
    # The same for everyone and for the server's life: the browser keeps it and asks again with its ETag.
    etag = '"' + hashlib.sha256(text.encode("utf-8")).hexdigest()[:32] + '"'
    headers = {"Content-Security-Policy": sheet_csp(text), "ETag": etag, "Cache-Control": "no-cache"}
    if etag in [tag.strip().removeprefix("W/") for tag in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return HTMLResponse(text, headers=headers)
