"""The HTML pages: one shell per view; the page script fills it from /api/state and SSE."""

from __future__ import annotations

from flask import Blueprint, render_template

pages = Blueprint("pages", __name__)

VIEWS = {"table": "Table", "review": "Review", "ledger": "Ledger", "camera": "Camera", "setup": "Setup",
         "advise": "Advise"}  # advise: for a player's own phone; what is asked there is never shown elsewhere


@pages.get("/")
def table():
    return render_template("page.html", view="table", views=VIEWS)


@pages.get("/<view>")
def view(view: str):
    if view not in VIEWS:
        return render_template("page.html", view="missing", views=VIEWS), 404
    return render_template("page.html", view=view, views=VIEWS)
