"""Which names a server answers to (the Host header), against DNS rebinding.

A page of another site can make a browser's name for it resolve to this server's address (DNS
rebinding): the browser then sends this server requests with that site's name in the Host
header and the site's own origin, which :func:`web.routes.guards.same_site` alone would accept.
So every request must name the server as it was started: the loopback names when it listens on
loopback, its address when it listens on one, any address literal when it listens on every
interface (a literal address is not a name anyone can rebind), and the names its host allows
(``serve --allowed-host``: the name of a reverse proxy's site, say).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from .i18n import words
from .tables import Refused

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
REFUSED = words("refused.host_name")


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a Host (or a bind address) names literally: 1.2.3.4 or [::1] (::1 for a bind)."""
    try:
        return ipaddress.ip_address(text[1:-1] if text.startswith("[") and text.endswith("]") else text)
    except ValueError:
        return None


def host_name(header: str) -> str | None:
    """The name of a Host header without its port, in lower case; None when it is malformed."""
    text = header.strip().lower()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not (text[end + 1] == ":" and text[end + 2 :].isdigit())):
            return None
        return text[: end + 1]
    name, _, port = text.partition(":")
    if not name or (port and not port.isdigit()) or any(c.isspace() or c in "/\\@" for c in name):
        return None
    return name


@dataclass(frozen=True)
class Hosts:
    """The names a server answers to, and whether any literal address will do."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def bound_to(cls, bind: str, allowed: tuple[str, ...] | list[str] = ()) -> Hosts:
        """The names of a server listening on `bind` (serve --host), with `allowed` names too."""
        extra = {name.strip().lower() for name in allowed}
        address = _address(bind)
        if bind.strip().lower() == "localhost" or (address is not None and address.is_loopback):
            return cls(frozenset(LOOPBACK_NAMES) | extra)
        if address is not None and address.is_unspecified:  # 0.0.0.0 or ::, every interface
            return cls(frozenset({"localhost"}) | extra, any_address=True)
        if address is not None:
            return cls(frozenset({f"[{address}]" if address.version == 6 else str(address)}) | extra)
        return cls(frozenset({bind.strip().lower()}) | extra)

    def allows(self, header: str | None) -> bool:
        name = host_name(header) if header is not None else None
        if name is None:
            return False
        if name in self.names:
            return True
        return self.any_address and _address(name) is not None


class HostCheck:
    """Middleware: a request whose Host is not one of `hosts` gets 400 and a sentence from
    `refuse(scope, refusal)`; the app never sees it."""

    def __init__(self, app, hosts: Hosts, refuse):
        self.app = app
        self.hosts = hosts
        self.refuse = refuse

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            header = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)
            if not self.hosts.allows(header):
                return await self.refuse(scope, Refused(400, REFUSED))(scope, receive, send)
        await self.app(scope, receive, send)
