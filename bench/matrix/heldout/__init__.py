# The held-out half of the matrix: do not read these modules while tuning.
"""The matrix's held-out cases, one module per tool set; reported, never tuned on."""
