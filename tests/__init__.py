"""compaction-sim test suite. A package, so that pytest puts the repository root (not
tests/) on sys.path: tests/sim must never shadow the real `sim` package."""
