"""The shipped networks' files, and the class name the classifier gives a face-down card."""

from __future__ import annotations

from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
DETECTOR = MODELS / "card-detector.onnx"
CLASSIFIER = MODELS / "card-classifier.onnx"
CORNERS = MODELS / "card-corners.onnx"
INDEX = MODELS / "card-index.onnx"
NOT_CARD = MODELS / "not-a-card.npz"  # the classifier's not-a-card row (vision.recognize.not_card)
BACK = "back"  # the classifier's class for a face-down card, and the key of each pack's back in datasets/
