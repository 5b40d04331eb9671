"""The secrets of a table's links: each human seat's and the spectators', derived from the host's.

The store keeps only their hashes (web.store); the host's page can show the links again, as
each is derived from the host's secret (HMAC-SHA256 of the table and a label), and no secret
can be found from another without the host's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

HUMAN = "human"  # the name a seat played by a person goes by (any other is a bot's)


def _derived(host_secret: str, table_id: str, label: str) -> str:
    mac = hmac.new(host_secret.encode("utf-8"), f"{table_id}:{label}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode("ascii").rstrip("=")


def seat_secrets(host_secret: str, table_id: str, seats: list) -> dict[int, str]:
    """Each human seat's secret, derived from the host's (HMAC-SHA256 of the table and seat):
    the host page can show the links again while the store keeps only their hashes, and no
    secret can be found from another without the host's."""
    return {i: _derived(host_secret, table_id, str(i)) for i, seat in enumerate(seats) if seat.who == HUMAN}


def watch_secret(host_secret: str, table_id: str) -> str:
    """The spectators' secret, derived from the host's as the seats' are (label "watch"): it
    opens the public board only, and neither the host's nor a seat's is found from it."""
    return _derived(host_secret, table_id, "watch")
