"""The detector run at the size a frame needs, not at the square it was exported at.

A 640x480 webcam frame letterboxed into the detector's 320x320 square is a quarter grey bars, and the
network convolves them as much as the table. YOLO is convolutional but its export bakes the input's
grid into a few constants: the anchor points and strides of the head, the reshapes that flatten
them, and the attention block's reshapes at stride 32. Here those constants are rewritten for
another size, a multiple of 32 each way: the same weights run on the frame letterboxed to 256x320,
a fifth less of the detector's work. Its scores come out a little lower there (the attention block
sees no grey cells), and one view's threshold is set for it (``vision.recognize.CONF``).
"""

from __future__ import annotations

import numpy as np

STRIDES = (8, 16, 32)  # YOLO11's three heads; the coarsest also sets the multiple a size must be


def fitting(height: int, width: int, long_side: int) -> tuple[int, int]:
    """The input a ``height`` x ``width`` picture letterboxes into: its long side ``long_side``, the
    other side padded up to the next multiple of the coarsest stride."""
    step, scale = STRIDES[-1], long_side / max(height, width)
    h, w = (-(-round(side * scale) // step) * step for side in (height, width))
    return int(h), int(w)


def anchor_points(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """The head's anchor points (1 x 2 x N, cell centres in grid units) and strides (1 x N), as
    Ultralytics' ``make_anchors`` lays them out for an input of this size."""
    points, strides = [], []
    for s in STRIDES:
        ys, xs = np.meshgrid(np.arange(height // s) + 0.5, np.arange(width // s) + 0.5, indexing="ij")
        points.append(np.stack([xs.ravel(), ys.ravel()]))
        strides.append(np.full(xs.size, s))
    return np.concatenate(points, 1)[None].astype(np.float32), np.concatenate(strides)[None].astype(np.float32)


def detector_graph(path: str, height: int, width: int) -> bytes:
    """The exported detector at ``path`` as a graph for ``height`` x ``width`` inputs (multiples of
    the coarsest stride). ValueError where the graph is not laid out as an Ultralytics export at a
    fixed size is (no anchor constants for its input size): it is then run as exported."""
    import onnx  # noqa: PLC0415
    from onnx import numpy_helper  # noqa: PLC0415

    if height % STRIDES[-1] or width % STRIDES[-1]:
        raise ValueError(f"input {height}x{width} is not a multiple of {STRIDES[-1]} each way")
    model = onnx.load(path)
    old_h, old_w = (d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim[2:])
    old_points, old_strides = anchor_points(old_h, old_w)
    points, strides = anchor_points(height, width)
    old_n, n = old_points.shape[-1], points.shape[-1]
    old_top, top = (old_h // STRIDES[-1], old_w // STRIDES[-1]), (height // STRIDES[-1], width // STRIDES[-1])
    shapes = {node.input[1] for node in model.graph.node if node.op_type == "Reshape"}
    found = set()
    for node in model.graph.node:
        if node.op_type != "Constant":
            continue
        tensor = node.attribute[0].t
        value = numpy_helper.to_array(tensor)
        if _same(value, old_points):
            new = points
            found.add("points")
        elif _same(value, old_strides):
            new = strides
            found.add("strides")
        elif node.output[0] in shapes and value.ndim == 1:
            new = _reshaped(value, old_n, n, old_top, top)
        else:
            continue
        tensor.CopyFrom(numpy_helper.from_array(new.astype(value.dtype), tensor.name))
    if found != {"points", "strides"}:
        raise ValueError(f"{path}: no anchor constants for its {old_h}x{old_w} input (not a fixed-size YOLO export)")
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value, dims[3].dim_value = height, width
    model.graph.output[0].type.tensor_type.shape.dim[-1].dim_value = n
    del model.graph.value_info[:]
    onnx.checker.check_model(model)
    return model.SerializeToString()


def _same(value: np.ndarray, constant: np.ndarray) -> bool:
    return value.dtype.kind == "f" and value.shape == constant.shape and bool(np.array_equal(value, constant))


def _reshaped(shape: np.ndarray, old_n: int, n: int, old_top: tuple[int, int], top: tuple[int, int]) -> np.ndarray:
    """A reshape's target shape with the input's grid in it moved to the new size: all anchors
    (the head), or the coarsest grid flat or as rows and columns (the attention block)."""
    new = shape.copy()
    if new[-1] == old_n:
        new[-1] = n
    elif new[-1] == old_top[0] * old_top[1]:
        new[-1] = top[0] * top[1]
    elif len(new) >= 2 and tuple(new[-2:]) == old_top:
        new[-2:] = top
    return new
