"""The shipped networks' files, and the class name the classifier gives a face-down card."""

from __future__ import annotations

from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent.parent / "models"
DETECTOR = MODELS / "card-detector.onnx"
CLASSIFIER = MODELS / "card-classifier.onnx"
CORNERS = MODELS / "card-corners.onnx"
INDEX = MODELS / "card-index.onnx"
BACK = "back"  # the classifier's class for a face-down card, and the key of each pack's back in datasets/
