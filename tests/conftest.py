import os

from hypothesis import settings

# `HYPOTHESIS_PROFILE=thorough make test` runs each property on many more random hands.
settings.register_profile("thorough", max_examples=4000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
