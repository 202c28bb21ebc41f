import os
from pathlib import Path

import pytest
from hypothesis import settings

# The slow tier: training runs and whole rendered hands on video. `make check` leaves it out;
# `make test` (CI) runs it.
SLOW_MODULES = {"test_gpu_round.py", "test_training_smoke.py", "test_virtual_table.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)

# `HYPOTHESIS_PROFILE=thorough make test` runs each property on many more random hands.
settings.register_profile("thorough", max_examples=4000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
