"""The ``chratze`` command: one entry point for the engine, vision and web tools."""

__version__ = "0.1.0"
