"""Table layouts: zones drawn on a snapshot, and the printed ArUco mat (vision.table.layout)."""

import json

import cv2
import numpy as np
import pytest

from vision.table.layout import MAT_H, MAT_W, LayoutError, MatFinder, TableLayout, mat_layout, render_mat

SQUARE = [[0, 0], [100, 0], [100, 100], [0, 100]]


def test_a_zone_named_after_a_player_places_that_player():
    layout = TableLayout.from_dict({"zones": {"Beat": SQUARE}})
    assert layout.place((50, 50), ("Anna", "Beat")) == "Beat"
    assert layout.place((150, 50), ("Anna", "Beat")) is None


def test_a_numbered_zone_is_the_seat_in_play_order():
    layout = TableLayout.from_dict({"zones": {"2": SQUARE, "upcard": [[200, 0], [300, 0], [300, 100]]}})
    assert layout.place((50, 50), ("Anna", "Beat", "Cla")) == "Beat"
    assert layout.place((280, 20), ("Anna", "Beat")) == "upcard"
    assert layout.place((50, 50), ("Anna",)) is None  # seat 2 is empty this hand


def test_a_layout_survives_saving_and_loading(tmp_path):
    layout = mat_layout(4)
    layout.save(tmp_path / "t.json")
    again = TableLayout.load(tmp_path / "t.json")
    assert again.space == "mat" and set(again.zones) == {"upcard", "1", "2", "3", "4"}
    assert np.allclose(again.zones["3"], layout.zones["3"], atol=0.1)


@pytest.mark.parametrize("bad", [{"zones": {"1": [[0, 0], [1, 1]]}}, {"zones": {"1": "here"}}, {"zones": []},
                                 {"zones": {}, "space": "sky"}, {"zones": {}}, []])
def test_a_malformed_layout_is_refused_with_a_reason(bad):
    with pytest.raises(LayoutError):
        TableLayout.from_dict(bad)


def test_an_unreadable_layout_file_is_a_clear_error(tmp_path):
    (tmp_path / "t.json").write_text("{nope")
    with pytest.raises(LayoutError, match="cannot read"):
        TableLayout.load(tmp_path / "t.json")


def _photo_of_mat(path, hom):
    """The printed mat as a tilted camera would see it, on a dark table."""
    mat = cv2.imread(str(path))
    return cv2.warpPerspective(mat, hom, (960, 720), borderValue=(40, 60, 40))[..., ::-1].copy()


def test_the_printed_mat_is_found_and_gives_the_seat_under_a_card(tmp_path):
    path = render_mat(4, tmp_path / "mat.png", dpi=100)
    px = 100 / 25.4
    src = np.float32([[0, 0], [MAT_W * px, 0], [MAT_W * px, MAT_H * px], [0, MAT_H * px]])
    dst = np.float32([[140, 120], [860, 90], [930, 650], [60, 690]])  # seen at a slant
    hom = cv2.getPerspectiveTransform(src, dst)
    image = _photo_of_mat(path, hom)
    to_mat = MatFinder()(image)
    assert to_mat is not None
    layout = mat_layout(4)
    for name in ("upcard", "1", "3"):
        centre_mm = layout.zones[name].mean(axis=0)
        in_image = cv2.perspectiveTransform(np.float32([[centre_mm * px]]), hom)[0, 0]
        want = "upcard" if name == "upcard" else ("Anna", "Beat", "Cla", "Dora")[int(name) - 1]
        assert layout.place(tuple(in_image), ("Anna", "Beat", "Cla", "Dora"), to_mat) == want


def test_the_mat_keeps_its_last_position_while_markers_are_covered(tmp_path):
    path = render_mat(3, tmp_path / "mat.png", dpi=100)
    finder = MatFinder()
    px = 100 / 25.4
    hom = cv2.getPerspectiveTransform(np.float32([[0, 0], [MAT_W * px, 0], [MAT_W * px, MAT_H * px], [0, MAT_H * px]]),
                                      np.float32([[100, 100], [860, 100], [860, 640], [100, 640]]))
    first = finder(_photo_of_mat(path, hom))
    covered = finder(np.full((720, 960, 3), 40, np.uint8))
    assert first is not None and covered is first


def test_the_mat_can_be_written_as_pdf(tmp_path):
    path = render_mat(6, tmp_path / "mat.pdf", dpi=72)
    assert path.read_bytes()[:5] == b"%PDF-"


def test_the_mat_command_writes_the_mat_and_its_layout(tmp_path):
    from chratze.cli import main

    assert main(["mat", "--players", "5", "--out", str(tmp_path / "m.png")]) == 0
    layout = json.loads((tmp_path / "m.layout.json").read_text())
    assert layout["space"] == "mat" and len(layout["zones"]) == 6


def test_a_zones_box_in_the_picture_is_where_place_finds_it():
    drawn = TableLayout.from_dict({"zones": {"upcard": [[200, 10], [300, 0], [310, 100], [190, 90]]}})
    assert drawn.bounds("upcard") == (190.0, 0.0, 310.0, 100.0)
    assert drawn.bounds("Anna") is None  # no such zone
    mat = mat_layout(4)
    assert mat.bounds("upcard") is None  # the mat not seen yet: nowhere in the picture
    to_mat = np.array([[0.5, 0, 10], [0, 0.5, 20], [0, 0, 1]])  # picture -> mat: half size, shifted
    x1, y1, x2, y2 = mat.bounds("upcard", to_mat)
    assert mat.place(((x1 + x2) / 2, (y1 + y2) / 2), ("Anna",), to_mat) == "upcard"
    assert mat.place((x1 - 2, y1 - 2), ("Anna",), to_mat) != "upcard"
