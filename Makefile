# Two entry points that work on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test bench model setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,train]'
	touch $@

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/chratze demo

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/engine_speed.py
	$(BIN)/python benchmarks/recognition_speed.py

# Regenerate the synthetic data and retrain both stages (CPU, or DEVICE=0 on a GPU).
SCENES ?= 1500
DEVICE ?= cpu
model: $(STAMP)
	$(BIN)/python -m datasets.build runs/data --train $(SCENES) --val $$(( $(SCENES) / 10 )) --seed 1 --crops-per-card 3
	$(BIN)/python -m vision.train --data runs/data --out models --runs runs/train --device $(DEVICE)

clean:
	rm -rf $(VENV) build *.egg-info
