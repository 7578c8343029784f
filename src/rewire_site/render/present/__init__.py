"""Presentation render/ owns: how values, fields and labels read on a page. derive/
returns facts; the helpers that turn them into reader text live here (issue 26). Some
still sit in `derive/display.py` because derive modules that make reader text use them
(`tests/test_architecture.py` names those modules); each moves here as they stop.
"""
