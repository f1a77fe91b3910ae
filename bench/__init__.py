"""Benchmark scripts: each prints figures; run them as `python bench/NAME.py`."""
