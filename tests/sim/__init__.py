"""Tests of the `sim` package (the harness core)."""
