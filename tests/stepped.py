"""The table service's camera stepped frame by frame by a test: a recognizer it scripts, no video."""

from __future__ import annotations

from typing import Callable

import numpy as np


class SteppedCamera:
    """Frames of one plain picture, 0.05 s apart, fed to the service's watcher as its camera thread would
    (under the table's lock, announcing what changed); ``recognizer`` names what each frame shows."""

    def __init__(self, service, recognizer: Callable[[np.ndarray], list] = lambda img: []) -> None:
        from vision.table.live import LiveTable  # noqa: PLC0415
        from webui.camera import CameraRunner  # noqa: PLC0415

        self.service = service
        CameraRunner(service, "unused.avi", None, recognizer=recognizer)  # gives the service its watcher
        self.table = LiveTable(service.watcher, recognizer, service.snapshots)
        self.image = np.full((240, 320, 3), (40, 110, 50), np.uint8)
        self.k = 0

    def frames(self, n: int) -> None:
        from vision.table.sources import Frame  # noqa: PLC0415

        for _ in range(n):
            with self.service.lock:
                self.service.note(self.table.process(Frame(self.image, self.k * 0.05, self.k)))
                self.service.bump()
            self.k += 1
