"""What reads a picture: the four ONNX networks and the geometry round them.

``recognizer.Recognizer(settings=PHOTO)(rgb)`` gives the cards in a picture (:class:`Detection`). The stages, in
the order they run: the detector's oriented boxes (``views``, ``input_size``), the corner fit
(``corners``, ``edges``), the crop classifier and the corner index reader (``index``), one card
per outline, which card lies on which (``layers``) and covered cards completed in the table's
plane (``plane``). Thresholds: ``settings``. No torch: ONNX Runtime on the CPU.

The package itself holds only what is light (the settings and the model files), so the command
line builds its options without loading OpenCV or ONNX Runtime.
"""

from .models import BACK, CLASSIFIER, CORNERS, DETECTOR, INDEX, MODELS, NOT_CARD
from .settings import FRAME, PHOTO, PRESETS, VIDEO, RecognizerSettings

__all__ = ["BACK", "CLASSIFIER", "CORNERS", "DETECTOR", "INDEX", "MODELS", "NOT_CARD", "FRAME", "PHOTO", "PRESETS",
           "VIDEO", "RecognizerSettings"]
