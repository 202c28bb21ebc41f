"""Frame sources and a camera that drops out."""

import numpy as np
import pytest

from vision.table.sources import Frame, FolderSource, Resilient, SourceError, open_source


class FlakyCamera:
    """A live source that gives ``good`` frames, then fails; reopening fails ``refusals`` times."""

    opened = 0
    script = []

    def __init__(self):
        FlakyCamera.opened += 1
        if FlakyCamera.script and FlakyCamera.script.pop(0) == "refuse":
            raise SourceError("camera unplugged")
        self.live, self.left = True, 3

    def read(self):
        if self.left == 0:
            return None
        self.left -= 1
        FlakyCamera.count += 1
        return Frame(np.zeros((4, 4, 3), np.uint8), float(FlakyCamera.count), FlakyCamera.count)

    def close(self):
        pass


def test_a_camera_that_vanishes_is_retried_with_backoff_and_frames_resume():
    FlakyCamera.opened, FlakyCamera.count = 0, 0
    FlakyCamera.script = ["ok", "refuse", "refuse", "ok"]
    waits = []
    src = Resilient(FlakyCamera, first_wait=0.5, max_wait=8, sleep=waits.append)
    got, states = [], []
    for f in src.frames():
        got.append(f)
        states.append(src.state)
        if sum(x is not None for x in got) == 6:
            break
    frames = [f.index for f in got if f is not None]
    assert frames == [1, 2, 3, 4, 5, 6]  # nothing lost, nothing repeated
    assert "lost" in states and states[-1] == "ok"
    assert waits == [0.5, 1.0, 2.0]  # lost, refused, refused: doubling
    assert FlakyCamera.opened == 4


def test_a_folder_of_images_is_read_in_order_and_ends(tmp_path):
    import cv2
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    src = Resilient(lambda: FolderSource(tmp_path), sleep=lambda s: None)
    frames = [f for f in src.frames()]
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert src.state == "ended"


def test_a_picture_s_colours_come_in_the_order_the_recognizer_reads_red_green_blue(tmp_path):
    import cv2
    cv2.imwrite(str(tmp_path / "f.png"), np.uint8([[[255, 0, 0], [0, 0, 255]]]))  # OpenCV writes BGR: blue, red
    frame = FolderSource(tmp_path).read()
    assert frame.image.tolist() == [[[0, 0, 255], [255, 0, 0]]] and frame.image.flags.writeable


def test_an_unknown_source_is_a_clear_error():
    with pytest.raises(SourceError, match="no camera, folder, file or stream"):
        open_source("/nowhere/at/all.mp4")
