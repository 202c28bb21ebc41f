"""What a user's clone needs at run time: no training stack, and nothing beside the clone."""

import subprocess
import sys
import tomllib
from pathlib import Path

from datasets.art import CARDS, SCANNED_PACKS, scanned_pack

ROOT = Path(__file__).resolve().parent.parent


def test_the_run_time_dependencies_hold_no_training_stack():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in deps}
    assert not names & {"torch", "torchvision", "ultralytics", "matplotlib"}
    assert "onnx" in names  # the detector is rewritten for a camera frame's shape at run time


def test_the_command_the_page_and_the_demo_table_load_no_torch_or_ultralytics():
    code = ("import sys, chratze.cli, webui, webui.serve, vision.table.virtual, vision.table.live; "
            "print(sorted(m for m in ('torch', 'ultralytics', 'torchvision') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_card_scans_ship_in_the_package_with_their_licence(monkeypatch, tmp_path):
    monkeypatch.setenv("CHRATZE_SHARED", str(tmp_path))  # nothing beside the clone
    scanned_pack.cache_clear()
    for name in SCANNED_PACKS:
        pack = scanned_pack(name)
        assert len(pack) == 37 and pack["Ah"].shape[2] == 3  # 36 cards and the back
    assert "MIT" in (CARDS / "LICENSE").read_text() and "webplatformz/challenge" in (CARDS / "README.md").read_text()
    scanned_pack.cache_clear()


def test_the_package_data_names_the_scans():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["datasets"]
    assert "cards/*/*.gif" in data and "cards/LICENSE" in data


def test_the_page_ships_its_script_library_with_its_licence():
    """idiomorph (0BSD) is served from the package: a table with no internet still updates in place."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["webui"]
    vendor = ROOT / "webui" / "static" / "vendor"
    assert "static/vendor/*" in data and (vendor / "idiomorph.js").exists()
    assert "Zero-Clause BSD" in (vendor / "idiomorph.LICENSE").read_text()


def test_the_command_line_loads_opencv_onnx_runtime_and_flask_only_for_the_commands_that_need_them():
    code = ("import sys, chratze.cli; chratze.cli.build_parser(); "
            "print(sorted(m for m in ('cv2', 'onnxruntime', 'flask', 'PIL') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
