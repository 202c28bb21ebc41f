"""A card tilted away from the camera along its length is seen wider than long: the picture's
long sides are then its ends, and a crop cut by them shows the card lying on its side."""

import numpy as np

from vision.recognize import FRAME
from vision.recognize.recognizer import Recognizer

NAMES = ["Ah", "Kh", "back"]
SURE_KH = [0.01, 0.98, 0.01]
UNSURE_AH = [0.6, 0.3, 0.1]
RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)


def card(width, height):
    """A white card on grey whose face's corners are red, green, blue, yellow (clockwise from
    its top left), and its outline."""
    image = np.full((200, 240, 3), 100, np.uint8)
    x0, y0 = 40, 40
    image[y0:y0 + height, x0:x0 + width] = 255
    for (y, x), colour in zip(((y0, x0), (y0, x0 + width - 12), (y0 + height - 12, x0 + width - 12),
                               (y0 + height - 12, x0)), (RED, GREEN, BLUE, YELLOW)):
        image[y:y + 12, x:x + 12] = colour
    quad = np.float32([[x0, y0], [x0 + width, y0], [x0 + width, y0 + height], [x0, y0 + height]])
    return image, quad


def reader(upright=SURE_KH, on_its_side=UNSURE_AH):
    """A recognizer without networks whose classifier reads ``upright`` where the crop has the
    face's top end (red and green) or bottom end (blue and yellow) on top, else ``on_its_side``."""
    r = Recognizer.__new__(Recognizer)
    r.index, r.names, r.back = None, NAMES, NAMES.index("back")
    r.crops = []

    def read(crops):
        r.crops.extend(crops)
        tops = [(tuple(int(v) for v in c[2, 2]), tuple(int(v) for v in c[2, -3])) for c in crops]
        return np.float32([upright if top in ((RED, GREEN), (BLUE, YELLOW)) else on_its_side for top in tops])

    r.read = read
    return r


def test_a_card_seen_wider_than_long_is_read_the_way_round_its_face_is_read_surest():
    image, quad = card(width=130, height=100)  # the face's top end is the picture's long side
    r = reader()
    [probs] = r.read_cards(image, [quad])
    assert NAMES[int(np.argmax(probs))] == "Kh"
    assert len(r.crops) == 2  # read both ways round


def test_a_card_seen_clearly_longer_than_wide_is_read_the_one_way_round():
    image, quad = card(width=80, height=int(80 * FRAME.sideways_below) + 10)
    r = reader()
    [probs] = r.read_cards(image, [quad])
    assert NAMES[int(np.argmax(probs))] == "Kh" and len(r.crops) == 1


def test_the_first_read_is_kept_where_the_other_way_round_is_no_surer():
    image, quad = card(width=100, height=130)  # upright, though not clearly longer than wide
    r = reader(upright=SURE_KH, on_its_side=[0.05, 0.9, 0.05])
    [probs] = r.read_cards(image, [quad])
    assert np.allclose(probs, SURE_KH) and len(r.crops) == 2


def test_a_back_read_the_first_way_round_stays_a_back_however_sure_a_face_read_sideways_is():
    """A stack of backs or a jar's lid, near square: a face read on it turned a quarter is a
    stretched guess (real photos: a stack of game cards' backs was read as Jh)."""
    image, quad = card(width=130, height=100)
    r = reader(upright=SURE_KH, on_its_side=[0.05, 0.05, 0.9])
    [probs] = r.read_cards(image, [quad])
    assert NAMES[int(np.argmax(probs))] == "back"


def test_a_card_read_surely_the_first_way_round_is_not_read_the_other_way():
    sure = [0.0002, 0.0003, FRAME.index_unsure + 0.0005]
    image, quad = card(width=130, height=100)
    r = reader(upright=SURE_KH, on_its_side=sure)
    [probs] = r.read_cards(image, [quad])
    assert np.allclose(probs, sure) and len(r.crops) == 1
