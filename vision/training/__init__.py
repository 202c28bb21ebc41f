"""How the shipped networks were made and are measured: trainers (Ultralytics and plain PyTorch,
offline), short rounds for a lent GPU, recovery of a checkpoint from a shipped ONNX file, and the
evaluation behind ``chratze eval-detector``. Nothing at the table imports this package."""
