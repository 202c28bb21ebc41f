"""Joining the table from another tablet or phone: the page's address on the local network, as text and
as a QR code to scan (drawn here by segno; nothing is fetched)."""

from __future__ import annotations

import io
import socket

import segno
from flask import Blueprint, Response, jsonify, request

join = Blueprint("join", __name__)


def lan_address() -> str:
    """This machine's address on the local network, which a tablet can reach (it often cannot resolve
    the bare host name). A UDP socket 'connected' to a documentation address sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:  # no network at all: this machine alone
            return "127.0.0.1"


def own_names() -> list[str]:
    """The names this machine answers to on the table's network: a request naming any other host is a
    page of another site reaching in by DNS rebinding, and is refused (Flask's TRUSTED_HOSTS)."""
    name = socket.gethostname()
    return sorted({"localhost", "127.0.0.1", "::1", "[::1]", name, f"{name}.local", socket.getfqdn(), lan_address()})


def table_url() -> str:
    """The page at this machine's LAN address and the port this request came in on."""
    port = request.host.rsplit(":", 1)[1] if ":" in request.host.rsplit("]", 1)[-1] else ""
    return f"{request.scheme}://{lan_address()}{':' + port if port else ''}/"


@join.get("/api/join")
def join_info():
    return jsonify(url=table_url())


@join.get("/join.svg")
def join_qr():
    out = io.BytesIO()
    segno.make(table_url(), error="m").save(out, kind="svg", scale=8, border=2, dark="#000", light="#fff")
    return Response(out.getvalue(), mimetype="image/svg+xml")
