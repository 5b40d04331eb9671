"""A refusal as an answer: JSON ``{"error": sentence}`` for the API (under ``/api/``), a page
(templates/error.html) for a browser, with ``Retry-After`` for a refusal that time lifts.

:func:`refused` and :func:`http_error` are the app's exception handlers (web.tables.Refused,
Starlette's own 404 and 405); :func:`refuse_early` answers for the middleware, which refuses
before any route is chosen (a rate, an unknown Host).
"""

from __future__ import annotations

import http
from typing import Any

import jinja2
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from .. import i18n
from ..tables import Refused
from .context import server_of


def error(status: int, message: str, headers: dict[str, str] | None = None, details: str | None = None) -> JSONResponse:
    """A refusal for the API: the sentence as ``{"error": ...}``, and for a move the rules refuse
    the condition as written and where as ``"details"`` (for a spec's author, not the player)."""
    body = {"error": message} if details is None else {"error": message, "details": details}
    return JSONResponse(body, status_code=status, headers=headers)


def wait_text(seconds: int, lang: str = i18n.DEFAULT) -> str:
    """'a few seconds', 'about 3 minutes': how long to wait before asking again, in words of `lang`."""
    if seconds < 10:
        return i18n.message(lang, "wait.few_seconds", {})
    if seconds < 90:
        return i18n.message(lang, "wait.seconds", {"n": seconds})
    minutes = round(seconds / 60)
    if minutes < 90:
        return i18n.message(lang, "wait.minutes", {"n": minutes})
    return i18n.message(lang, "wait.hours", {"n": round(minutes / 60)})


def status_phrase(status: int, lang: str = i18n.DEFAULT) -> str:
    """An HTTP status's name in `lang` (the catalogues name each status the server answers
    with; another, from a layer below, keeps HTTP's English phrase)."""
    key = f"http.{status}"
    return i18n.message(lang, key, {}) if key in i18n.catalogue(lang) else http.HTTPStatus(status).phrase


def page_error(
    env: jinja2.Environment,
    status: int,
    message: str | i18n.Words,
    retry_after: int | None = None,
    lang: str = i18n.DEFAULT,
) -> HTMLResponse:
    """An error as a page in `lang`: what went wrong and, for a limit, when to try again."""
    return HTMLResponse(
        env.get_template("error.html").render(
            **i18n.page_words(lang, ""),
            message=i18n.said(lang, message),
            status=status,
            phrase=status_phrase(status, lang),
            wait=wait_text(retry_after, lang) if retry_after is not None else None,
        ),
        status_code=status,
        headers={"Retry-After": str(retry_after)} if retry_after is not None else None,
    )


async def refused(request: Request, exc: Refused) -> Response:
    """A refusal that a handler lets through (the API's do; a page's handler answers with
    page_error itself): its sentence as JSON in the request's language, with its Retry-After."""
    return error(exc.status, exc.said(language(request)), exc.headers, exc.details)


def refuse_early(env: jinja2.Environment, scope: Any, exc: Refused) -> Response:
    """A refusal before routing (a rate, an unknown Host): JSON under /api/, a page elsewhere,
    in the language the request asks for."""
    lang = language(Request(scope))
    if scope["path"].startswith("/api/"):
        return error(exc.status, exc.said(lang), exc.headers)
    return page_error(env, exc.status, exc.words, exc.retry_after, lang=lang)


async def http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own refusals (no such route, a method not allowed): JSON under /api/, a page elsewhere."""
    known = {404: "refused.no_page", 405: "refused.method"}
    lang = language(request)
    message = i18n.message(lang, known[exc.status_code], {}) if exc.status_code in known else str(exc.detail)
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)
    return page_error(server_of(request).env, exc.status_code, message, lang=lang)


def language(request: Request) -> str:
    """The language of an answer to `request`: the one its body named (a move's ``"lang"``, kept
    on ``request.state``), else ``?lang=``, else the browser's (web.i18n.pick)."""
    chosen = getattr(request.state, "lang", None)
    if chosen is not None:
        return str(chosen)
    return i18n.pick(request.query_params.get("lang", ""), request.headers.get("accept-language", ""))
