"""Tests of the `strategies` package."""
