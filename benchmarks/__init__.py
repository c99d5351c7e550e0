"""Benchmarks (see playouts.py)."""
