"""BFCL v4 (Berkeley Function Calling Leaderboard) run offline through springtail's ChatClient.

The data is BFCL's own, vendored under ``data/`` (Apache-2.0, see
``data/NOTICE``); the checker re-implements BFCL's AST and multi-turn rules.
``python -m bench.bfcl --help`` runs it; README.md says what is faithful.
"""

from bench.bfcl._checker import Verdict, ast_check, standardize_string
from bench.bfcl._data import CATEGORIES, FINAL_ONLY, TUNING, Category, Entry, load, sample
from bench.bfcl._runner import Outcome, RunSettings, run_entry
from bench.bfcl._wilson import wilson

__all__ = [
    "CATEGORIES",
    "FINAL_ONLY",
    "TUNING",
    "Category",
    "Entry",
    "Outcome",
    "RunSettings",
    "Verdict",
    "ast_check",
    "load",
    "run_entry",
    "sample",
    "standardize_string",
    "wilson",
]
