"""springtail's benchmarks: framework overhead next to the peers, and the embedded model.

Run everything with ``python -m bench`` (see ``bench/README.md``). Not part of
the test suite: timings belong here, never in tests.
"""
