"""A deck being taught: its folder in the user's data, the captures kept there, and its learning.

Every capture is written as soon as it is taken, so a teaching stopped halfway (a closed page, a bad
photo, a crash) keeps every card already taught; a new profile replaces the old one only once it is
learned and has passed its check.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from vision.recognize.deck import DeckError, DeckProfile, deck_folder, listed

from .captures import Capture
from .learn import Progress, learn
from .packs import Pack, pack_named
from .settings import TEACH, TeachSettings


class Teaching:
    """The deck ``name``: created for ``pack`` if new; an existing deck keeps its pack."""

    def __init__(self, name: str, pack: str | None = None) -> None:
        self.folder = deck_folder(name)
        self.name = name
        meta = self.folder / "teach.json"
        if meta.is_file():
            known = json.loads(meta.read_text(encoding="utf-8"))["pack"]
            if pack and pack != known:
                raise DeckError(f"deck {name!r} is taught as a {known} pack, not {pack}: choose another name")
            pack = known
        if not pack:
            raise DeckError(f"deck {name!r} is new: say which pack it is (--pack)")
        self.pack: Pack = pack_named(pack)
        self.captures_dir = self.folder / "captures"

    def _begin(self) -> None:
        meta = self.folder / "teach.json"
        if not meta.is_file():
            self.folder.mkdir(parents=True, exist_ok=True)
            meta.write_text(json.dumps({"name": self.name, "pack": self.pack.name}), encoding="utf-8")

    def _files(self) -> dict[str, list[Path]]:
        """Each card's capture files, oldest first, known by their names (``<code>-<k>.png``): the page
        asks which cards are taken on every update, and decoding every picture for that is waste."""
        out: dict[str, list[Path]] = {}
        for png in sorted(self.captures_dir.glob("*.png")) if self.captures_dir.is_dir() else []:
            code = png.stem.rsplit("-", 1)[0]
            if code in self.pack.codes:
                out.setdefault(code, []).append(png)
        return out

    def captured(self) -> dict[str, list[Capture]]:
        return {code: [Capture.load(p) for p in files] for code, files in self._files().items()}

    def captured_codes(self) -> set[str]:
        return set(self._files())

    def latest(self, code: str) -> Capture | None:
        """The card's newest capture (what its thumbnail shows), or None."""
        files = self._files().get(code)
        return Capture.load(files[-1]) if files else None

    def missing(self) -> list[str]:
        have = self.captured_codes()
        return [c for c in self.pack.codes if c not in have]

    def add(self, cap: Capture, retake: bool = True) -> Path:
        """Keep ``cap``; ``retake``: it replaces the card's earlier captures (only once it is written)."""
        if cap.code not in self.pack.codes:
            raise DeckError(f"{cap.code}: the {self.pack.title} pack has no such card")
        self._begin()
        old = sorted(self.captures_dir.glob(f"{cap.code}-*.png")) if self.captures_dir.is_dir() else []
        k = 1 + max((int(p.stem.rsplit("-", 1)[1]) for p in old), default=-1)
        path = cap.save(self.captures_dir, k)
        if retake:
            for p in old:
                p.unlink(missing_ok=True)
                p.with_suffix(".json").unlink(missing_ok=True)
        return path

    def learn(self, recognizer, settings: TeachSettings = TEACH, progress: Progress | None = None) -> DeckProfile:
        """Learn and keep the profile; a refused one (:class:`vision.teach.learn.Refused`) leaves the old."""
        profile = learn(self.name, self.pack, self.captured(), recognizer, settings, progress)
        profile.save(self.folder)
        return profile

    def forget(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def summaries() -> list[dict]:
    """Each deck in the data folder: its pack, and whether it is learned and how surely it reads its check
    views, or why it cannot be used (what ``chratze decks`` prints and the setup page lists)."""
    out = []
    for name in listed():
        row: dict = {"name": name, "learned": False, "problem": None}
        try:
            teaching = Teaching(name)
            row.update(pack=teaching.pack.name, title=teaching.pack.title)
            f = DeckProfile.load(teaching.folder).figures
            row.update(learned=True, right=f["profile_right"], shipped_right=f["shipped_right"])
        except (DeckError, ValueError, OSError, KeyError) as exc:
            row["problem"] = str(exc)
        out.append(row)
    return out
