"""The training round in short steps (vision.training.round), run tiny on the CPU as it runs on a GPU
machine: offline, without polars, each step going on from the last (docs/gpu-round.md)."""

import sys

import numpy as np
import pytest
import yaml

from tests.test_training_smoke import block_network


@pytest.fixture(scope="module")
def tiny_round(tmp_path_factory):
    """data -> detector (recovered from the shipped ONNX) -> detector again, network blocked and
    polars missing, as on the lent machines."""
    mp = pytest.MonkeyPatch()
    attempts = block_network(mp)
    from vision.training import offline  # noqa: F401  (before ultralytics, as vision.training.train imports it)
    from vision.training import round as gpu_round
    from ultralytics.engine.trainer import BaseTrainer

    mp.setitem(sys.modules, "polars", None)  # `import polars` fails
    mp.setattr(BaseTrainer, "read_results_csv", BaseTrainer.read_results_csv)  # undone after
    work = tmp_path_factory.mktemp("round")
    out = work / "out"
    gpu_round.data(work, scenes=6, seed=7, workers=1)
    gpu_round.detector(work, out, minutes=0, epochs=1)
    first = sorted(out.iterdir())
    gpu_round.detector(work, out, minutes=0, epochs=1)
    mp.undo()
    return work, out, first, attempts


def test_a_round_step_never_touches_the_network_even_without_polars(tiny_round):
    _, _, _, attempts = tiny_round
    assert attempts == []


def test_the_first_detector_step_starts_from_the_shipped_detector(tiny_round):
    work, _, first, _ = tiny_round
    args = yaml.safe_load((work / "runs" / "detect1" / "args.yaml").read_text())
    assert args["model"] == str(work / "detector-shipped.pt")
    assert [p.name for p in first] == ["card-detector.onnx", "card-detector.pt", "detect1-results.csv"]


def test_a_later_detector_step_goes_on_from_the_last_one(tiny_round):
    work, out, _, _ = tiny_round
    args = yaml.safe_load((work / "runs" / "detect2" / "args.yaml").read_text())
    assert args["model"] == str(work / "detector-latest.pt")
    assert (out / "detect2-results.csv").is_file()


def test_the_detector_a_step_brings_back_is_one_the_recognizer_runs(tiny_round):
    from datasets.art import all_packs
    from datasets.scenes import render_scene
    from vision.recognize.recognizer import Recognizer

    _, out, _, _ = tiny_round
    r = Recognizer(out / "card-detector.onnx", corners=None, index=None)
    assert isinstance(r.detect_cards(render_scene(3, all_packs()).image), list)


def test_the_corners_step_cuts_its_windows_round_the_boxes_of_the_round_s_detector(tiny_round, tmp_path, capsys):
    """A call's out folder is emptied before the next call, so the detector is looked for in the work folder."""
    import onnx

    from vision.training import round as gpu_round

    work, _, _, _ = tiny_round
    made = gpu_round.corners(work, tmp_path / "out", minutes=None, scenes=4, seed=9, workers=1, epochs=1)
    assert f"windows round {work / 'card-detector.onnx'}'s boxes" in capsys.readouterr().out
    assert {"size", "grow"} <= {p.key for p in onnx.load(str(made)).metadata_props}
    assert (tmp_path / "out" / "corners.pt").is_file() and (work / "corners-latest.pt").is_file()


def test_a_built_data_set_is_not_built_again(tiny_round):
    from vision.training import round as gpu_round

    work, _, _, _ = tiny_round
    images = sorted((work / "data" / "detect" / "images" / "train").iterdir())
    gpu_round.data(work, scenes=50, seed=8, workers=1)
    assert sorted((work / "data" / "detect" / "images" / "train").iterdir()) == images


def test_results_read_without_polars_are_what_polars_reads(tiny_round, tmp_path):
    from types import SimpleNamespace

    from ultralytics.engine.trainer import BaseTrainer

    from vision.training.train import read_results_csv

    _, out, _, _ = tiny_round
    trainer = SimpleNamespace(csv=out / "detect1-results.csv")
    assert read_results_csv(trainer) == BaseTrainer.read_results_csv(trainer)
    assert read_results_csv(SimpleNamespace(csv=tmp_path / "none.csv")) == {}


def test_corner_training_given_minutes_runs_only_the_epochs_that_fit(tmp_path):
    from vision.recognize.corners import SIZE
    from vision.training.train_corners import train

    rng = np.random.default_rng(0)
    data = tmp_path / "pairs.npz"
    np.savez(data, windows=rng.integers(0, 256, (64, SIZE, SIZE, 3), np.uint8),
             corners=rng.random((64, 4, 2), np.float32))
    lines: list[str] = []
    train(data, epochs=5, batch=8, minutes=1e-6, log=lines.append)
    assert [line.split()[1] for line in lines] == ["1/5", "epochs"] and lines[1].startswith("1 epochs of 5 fit")
    lines.clear()
    train(data, epochs=3, batch=8, minutes=60, log=lines.append)
    assert [line.split()[1] for line in lines] == ["1/3", "2/3", "3/3"]


def test_epochs_that_fit_a_budget_count_the_ones_done():
    from vision.training.train_corners import epochs_that_fit

    assert epochs_that_fit(done=1, seconds=10.0, budget=35.0) == 3
    assert epochs_that_fit(done=2, seconds=50.0, budget=10.0) == 2  # never fewer than are done


@pytest.mark.parametrize("name, torch_name", [("0", "cuda:0"), ("1,2", "cuda:1"), ("cpu", "cpu"), ("cuda:0", "cuda:0")])
def test_a_gpu_is_named_for_pytorch_as_ultralytics_names_it(name, torch_name):
    from vision.training.train_corners import torch_device

    assert torch_device(name) == torch_name


def test_a_shrunk_schedule_ends_at_the_rate_a_full_one_ends_at():
    import torch

    from vision.training.train_corners import one_cycle

    def last_rate(steps: int, done: int) -> float:
        opt = torch.optim.AdamW(torch.nn.Linear(2, 2).parameters(), lr=1e-3)
        sched = one_cycle(opt, 1e-3, steps, done=done)
        for _ in range(steps - 1 - min(done, steps - 1)):
            opt.step()
            sched.step()
        return opt.param_groups[0]["lr"]

    assert last_rate(40, 0) == pytest.approx(last_rate(40, 25))
    assert last_rate(40, 0) < 1e-6


def test_the_steps_run_from_the_command_line(tmp_path):
    from vision.training.round import main

    main(["data", "--work", str(tmp_path), "--scenes", "2", "--seed", "4", "--workers", "1", "--packs", "swiss"])
    assert len(list((tmp_path / "data" / "detect" / "images" / "train").iterdir())) == 2
    with pytest.raises(SystemExit):
        main(["train-everything"])
