# Two entry points that work on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HASH := $(shell cat pyproject.toml | cksum | cut -d' ' -f1)
RUN_STAMP := $(VENV)/.installed-run-$(HASH)
ALL_STAMP := $(VENV)/.installed-all-$(HASH)

.PHONY: demo test check bench model setup clean chromium

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# What the referee, the camera and the page need: no torch, no Ultralytics.
$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e .
	touch $@

# Everything: the tests and the training stack (torch pinned to the files on this machine).
$(ALL_STAMP): pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e '.[test,train]'
	touch $@ $(RUN_STAMP)

setup: $(ALL_STAMP)

# The tablet page at http://localhost:8000/: webcam 0 if one is attached, else the built-in
# virtual table as the camera.
demo: $(RUN_STAMP)
	$(BIN)/chratze serve --source auto --port $(PORT)

PORT ?= 8000

# Everything, as CI runs it.
test: $(ALL_STAMP) chromium
	$(BIN)/python -m pytest

# The fast tier for the inner loop: everything but training runs and whole rendered hands.
check: $(ALL_STAMP)
	$(BIN)/python -m pytest -m "not slow"

# The browser tests drive Debian's Chromium; install it if we may (they skip, saying why, if not).
chromium:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		apt-get install -y -q chromium >/dev/null 2>&1 || echo "chromium not installed: browser tests will skip"; }

bench: $(ALL_STAMP)
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/recognition_speed.py
	$(BIN)/python benchmarks/classifier_crops.py --scenes 200
	$(BIN)/python benchmarks/per_card_errors.py --scenes 200
	$(BIN)/python benchmarks/map_losses.py --scenes 200
	$(BIN)/python benchmarks/plane_completion.py --scenes 200
	$(BIN)/python benchmarks/false_boxes.py
	$(BIN)/python benchmarks/stacking.py --scenes 400
	$(BIN)/python benchmarks/live_table.py --hands 20
	$(BIN)/python benchmarks/teach_deck.py --hands 20
	$(BIN)/python benchmarks/page_load.py --viewers 20 --hands 4

# Regenerate the synthetic data and retrain both stages (CPU, or DEVICE=0 on a GPU). Fetches the
# two poker patterns from the npm registry once (datasets.fetched); PACKS=swiss,drawn needs nothing.
SCENES ?= 1500
CROPS ?= 30000
DEVICE ?= cpu
PACKS ?= swiss,drawn,svg-cards,cardsjs
# The classifier also learns from crops cut at the new detector's own boxes (datasets.detector_crops);
# the corner network from windows around them (datasets.corner_crops), the index network from
# the cards' corner patches (datasets.index_crops); both in plain PyTorch, on the CPU.
model: $(ALL_STAMP)
	$(BIN)/python -m datasets.fetched
	$(BIN)/python -m datasets.build runs/data --train $(SCENES) --val $$(( $(SCENES) / 10 )) --seed 1 --crops-per-card 3 --card-crops $(CROPS) --packs $(PACKS)
	$(BIN)/python -m vision.training.train --data runs/data --out models --runs runs/train --device $(DEVICE) --stage detect
	$(BIN)/python -m datasets.detector_crops runs/data-det --train $(SCENES) --val $$(( $(SCENES) / 10 )) --seed 5 --packs $(PACKS) --detector models/card-detector.onnx
	rm -rf runs/data-cls && $(BIN)/python -m datasets.merge runs/data-cls runs/data runs/data-det:2
	$(BIN)/python -m vision.training.train --data runs/data-cls --out models --runs runs/train --device $(DEVICE) --stage classify
	$(BIN)/python -m datasets.corner_crops runs/corners/pairs.npz --scenes $$(( $(SCENES) * 2 )) --seed 40 --packs $(PACKS) --detector models/card-detector.onnx
	$(BIN)/python -m vision.training.train_corners --data runs/corners/pairs.npz --out models/card-corners.onnx --state runs/corners/last.pt
	$(BIN)/python -m datasets.index_crops runs/index/patches.npz --scenes $$(( $(SCENES) * 2 )) --seed 63 --packs $(PACKS)
	$(BIN)/python -m vision.training.train_index --data runs/index/patches.npz --out models/card-index.onnx --state runs/index/last.pt

clean:
	rm -rf $(VENV) build *.egg-info
