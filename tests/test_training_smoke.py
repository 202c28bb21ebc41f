"""A tiny end-to-end run, fully offline: synthetic data -> train both stages -> ONNX -> detect.

Every socket call is blocked and recorded; the run must not try the network even once
(online check, telemetry, settings sync, fonts for the plots, weight downloads).
"""

import json
import socket
from pathlib import Path

import numpy as np
import pytest

from chratze.cli import main


def block_network(mp: pytest.MonkeyPatch) -> list[str]:
    """Every socket call fails and is recorded in the list returned."""
    attempts: list[str] = []

    def blocked(*args, **kwargs):
        attempts.append(repr(args[:2]))
        raise OSError("network blocked by the test")

    for name in ("create_connection", "getaddrinfo"):
        mp.setattr(socket, name, blocked)
    mp.setattr(socket.socket, "connect", blocked)
    return attempts


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    attempts = block_network(mp)
    out = tmp_path_factory.mktemp("smoke")
    mp.setenv("CHRATZE_YOLO_DIR", str(out / "yolo"))
    from datasets.build import build
    from vision.training import offline
    from vision.training.train import CLASSIFIER, DETECTOR, allow_batches, export_onnx, train_stage

    offline.go_offline()
    data = build(out / "data", train=10, val=4, seed=3, workers=1, progress=False)
    det = train_stage(DETECTOR, str(data), out / "runs", "det", epochs=1, imgsz=64, plots=True)
    cls = train_stage(CLASSIFIER, str(out / "data" / "classify"), out / "runs", "cls", epochs=1, imgsz=32,
                      plots=False)
    models = {"det": export_onnx(det, 64, out / "models" / "det.onnx"),
              "cls": allow_batches(export_onnx(cls, 32, out / "models" / "cls.onnx"))}
    mp.undo()
    return out, models, attempts


def test_training_and_export_never_touch_the_network(offline_run):
    out, models, attempts = offline_run
    assert attempts == []
    assert all(p.is_file() and p.stat().st_size > 100_000 for p in models.values())
    # Ultralytics reads its folder once, at import: this run's, or an earlier test's (vision.training.offline's).
    from ultralytics.utils import SETTINGS_FILE

    from vision.training import offline

    assert Path.home() not in SETTINGS_FILE.parents
    assert SETTINGS_FILE.parent.parent in (out / "yolo", offline.config_dir())
    assert json.loads(SETTINGS_FILE.read_text())["sync"] is False


def test_detect_prints_each_image_and_a_clear_error_for_a_bad_one(offline_run, tmp_path, capsys):
    out, models, _ = offline_run
    image = next((out / "data" / "detect" / "images" / "val").glob("*.jpg"))
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    code = main(["detect", "--json", "--conf", "0.0", "--detector", str(models["det"]),
                 "--classifier", str(models["cls"]), str(broken), str(tmp_path / "missing.jpg"), str(image)])
    captured = capsys.readouterr()
    assert code == 1
    results = json.loads(captured.out)
    assert [("error" in r) for r in results] == [True, True, False]
    assert "not an image" in results[0]["error"] and "no such file" in results[1]["error"]
    for d in results[2]["cards"]:
        assert {"card", "confidence", "box", "corners", "alternatives"} <= set(d)
        assert len(d["corners"]) == 4


def test_the_exported_classifier_reads_a_frame_s_cards_in_one_run_as_it_reads_each_alone(offline_run):
    from vision.recognize.recognizer import Recognizer

    _, models, _ = offline_run
    r = Recognizer(models["det"], models["cls"], second_look=0.0)
    assert r.cls_batch
    crops = [np.random.default_rng(k).integers(0, 256, (40, 30, 3), np.uint8) for k in range(5)]
    alone = np.concatenate([r.read([c]) for c in crops])
    assert np.allclose(r.read(crops), alone, atol=1e-5)


@pytest.mark.parametrize("stage", ["det", "cls"])
def test_a_checkpoint_recovered_from_a_shipped_onnx_computes_what_the_onnx_computes(offline_run, stage):
    """Only the ONNX files ship; vision.training.recover makes a .pt to fine-tune from them again."""
    import onnxruntime as ort
    import torch
    from ultralytics import YOLO

    from vision.training.recover import recover, scene_images

    out, models, _ = offline_run
    pt = recover(models[stage], out / f"{stage}-recovered.pt", samples=8)
    session = ort.InferenceSession(str(models[stage]), providers=["CPUExecutionProvider"])
    size = session.get_inputs()[0].shape[2]
    x = scene_images(2, size, "obb" if stage == "det" else "classify", seed=5)
    want = np.concatenate([session.run(None, {"images": x[i:i + 1]})[0] for i in range(2)])
    with torch.no_grad():
        got = YOLO(str(pt)).model.float().eval()(torch.from_numpy(x))
    got = (got[0] if isinstance(got, (tuple, list)) else got).numpy()
    assert np.allclose(got, want, rtol=1e-3, atol=1e-3 * np.abs(want).max())


@pytest.mark.parametrize("model", ["card-index.onnx", "card-corners.onnx"])
def test_a_small_network_recovered_from_its_shipped_onnx_computes_what_the_onnx_computes(tmp_path, model):
    """The index reader and the corner fit are fine-tuned from their shipped files too (``--init``)."""
    import onnxruntime as ort
    import torch

    from vision.recognize import corners
    from vision.recognize import index as index_stage
    from vision.recognize import MODELS
    from vision.training.recover import recover, scene_images
    from vision.training.train_corners import corner_net
    from vision.training.train_index import index_net

    index = model == "card-index.onnx"
    net = index_net(37) if index else corner_net()
    net.load_state_dict(torch.load(recover(MODELS / model, tmp_path / "state.pt", samples=32)))
    x = scene_images(6, index_stage.SIZE if index else corners.SIZE, "index" if index else "corners", seed=5)
    session = ort.InferenceSession(str(MODELS / model), providers=["CPUExecutionProvider"])
    want = session.run(None, {session.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        got = net.eval()(torch.from_numpy(x))
    got = (torch.softmax(got, 1) if index else got).numpy()
    assert np.allclose(got, want, atol=1e-4)


def test_detect_without_a_model_is_a_clear_error(tmp_path, capsys):
    code = main(["detect", "--detector", str(tmp_path / "none.onnx"), "x.jpg"])
    assert code == 2
    assert "model file not found" in capsys.readouterr().err


def test_the_corner_network_trains_exports_and_fits_boxes_in_the_recognizer_offline(offline_run, tmp_path,
                                                                                    monkeypatch):
    """Pairs from rendered scenes (boxes: the cards' own, jittered) -> a short training -> ONNX the
    recognizer loads and runs, without a socket call."""
    from datasets.art import all_packs
    from datasets.corner_crops import jittered, pairs_of_scene, val_path
    from datasets.scenes import SceneOptions, render_scene
    from vision.recognize.geometry import min_area_quad
    from vision.recognize.recognizer import Recognizer
    from vision.training.train_corners import export, train

    _, models, _ = offline_run
    attempts = block_network(monkeypatch)
    rng = np.random.default_rng(0)
    pairs = []
    for seed in range(6):
        scene = render_scene(seed, all_packs(), SceneOptions(things_rate=0.0))
        boxes = [jittered(min_area_quad(c.quad), rng) for c in scene.labelled()]
        pairs += pairs_of_scene(scene.image, scene.labelled(), boxes, rng, jitter=1)
    data = tmp_path / "pairs.npz"
    for path, part in ((data, pairs[4:]), (val_path(data), pairs[:4])):
        np.savez(path, windows=np.stack([w for w, _ in part]), corners=np.stack([c for _, c in part]))
    lines = []
    net = train(data, epochs=1, batch=16, log=lines.append)
    assert "val corner error" in lines[0]
    onnx_file = export(net, tmp_path / "corners.onnx")
    r = Recognizer(models["det"], models["cls"], conf=0.0, corners=onnx_file)
    quads = r.refine(scene.image, [min_area_quad(c.quad) for c in scene.labelled()])
    assert len(quads) == len(scene.labelled()) and all(q.shape == (4, 2) for q in quads)
    assert attempts == []


def test_the_index_network_trains_exports_and_reads_corners_in_the_recognizer_offline(offline_run, tmp_path,
                                                                                     monkeypatch):
    """Corner patches from rendered scenes -> a short training -> ONNX the recognizer loads and
    multiplies into the classifier's reads, without a socket call."""
    from datasets.art import all_packs
    from datasets.corner_crops import val_path
    import torch

    from datasets.index_crops import patches_of_scene
    from datasets.scenes import SceneOptions, render_scene
    from vision.recognize.recognizer import Recognizer
    from vision.training.train_index import export, train

    _, models, _ = offline_run
    attempts = block_network(monkeypatch)
    rng = np.random.default_rng(0)
    patches, names = [], []
    for seed in range(6):
        scene = render_scene(seed, all_packs(), SceneOptions(things_rate=0.0))
        p, n = patches_of_scene(scene, rng)
        patches, names = patches + p, names + n
    data = tmp_path / "patches.npz"
    for path, part in ((data, slice(4, None)), (val_path(data), slice(0, 4))):
        np.savez(path, patches=np.stack(patches[part]), names=np.array(names[part]))
    lines = []
    net, classes = train([data], epochs=1, batch=16, log=lines.append)
    assert "val right" in lines[0] and "none" in classes
    torch.save(net.state_dict(), tmp_path / "last.pt")
    again, _ = train([data], epochs=0, init=tmp_path / "last.pt", log=lines.append)  # goes on from a state
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), again.state_dict().values()))
    r = Recognizer(models["det"], models["cls"], conf=0.0, index=export(net, classes, tmp_path / "index.onnx"))
    quads = [c.quad for c in scene.labelled()]
    probs = r.read_cards(scene.image, quads)
    assert probs.shape == (len(quads), len(r.names)) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert attempts == []


def test_a_freshly_exported_detector_is_rewritten_for_a_frames_shape(offline_run):
    """vision.recognize.input_size on what this Ultralytics exports now, not only on the shipped file."""
    import numpy as np
    import onnxruntime as ort

    from vision.recognize.input_size import anchor_points, detector_graph

    _, models, _ = offline_run
    path = models["det"]
    assert detector_graph(str(path), 64, 64) == path.read_bytes()
    session = ort.InferenceSession(detector_graph(str(path), 32, 64), providers=["CPUExecutionProvider"])
    out = session.run(None, {session.get_inputs()[0].name: np.zeros((1, 3, 32, 64), np.float32)})[0]
    assert out.shape[-1] == anchor_points(32, 64)[0].shape[-1] == 42
