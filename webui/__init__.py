"""The tablet page (Flask): the live trick and pot, the table's controls, the review, the ledger.

``create_app`` builds the app around one :class:`~webui.table.TableService`; ``chratze serve``
adds the camera. Every asset is shipped in ``static/``: nothing is fetched from the network.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Iterable

from flask import Flask, jsonify, request
from werkzeug.exceptions import SecurityError

from engine.rules import HouseRules

from .advise import advisor
from .api import api
from .camera import camera
from .guard import PinGuard
from .join import join, own_names
from .pages import pages
from .store import Store
from .table import TableService
from .teach import Desk, teach


def create_app(data_dir: str | Path = "runs/table", rules: HouseRules | None = None, pin: str | None = None,
               testing: bool = False, hosts: Iterable[str] = ()) -> Flask:
    """``hosts``: names the page may be asked for besides this machine's own (a name a router gives it)."""
    data = Path(data_dir)
    app = Flask(__name__)
    app.config.update(TESTING=testing, JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=4 * 1024 * 1024,
                      TRUSTED_HOSTS=[*own_names(), *hosts])
    pin = pin if pin is not None else f"{secrets.randbelow(10 ** 6):06d}"  # "" only from --no-pin
    service = TableService(Store(data / "table.sqlite"), rules, pin, snapshots=data / "snapshots")
    app.extensions["table"] = service
    app.extensions["teach"] = Desk(data)
    app.extensions["pin_guard"] = PinGuard()

    app.register_blueprint(pages)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(camera)
    app.register_blueprint(teach)
    app.register_blueprint(join)
    app.register_blueprint(advisor)
    app.after_request(_not_framed)
    app.register_error_handler(SecurityError, lambda exc: (jsonify(
        error=f"this table's page is not served as {request.headers.get('Host', '')!r}: open it by this machine's address, "
              "or start the server with --allow-host for that name"), 400))
    app.register_error_handler(413, lambda exc: (jsonify(error=f"the request is over the "
                                                               f"{app.config['MAX_CONTENT_LENGTH'] // 2 ** 20} MB a page may send"), 413))
    return app


def _not_framed(response):
    """No other site may show the page in a frame (a tap there would be the host's)."""
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response
