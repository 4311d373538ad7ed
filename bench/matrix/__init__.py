"""The embedded model's end-to-end evaluation: tool sets × system prompts × request kinds.

Each request runs through a real ``ChatClient`` with a ``ToolCallingAdvisor``
(and chat memory for conversations) against real tools with real results. A
request passes when the tools the model ran are exactly the expected calls
with the expected arguments (no unwanted call) and the final answer states
what the tools returned. The cases are split into a development half, on
which rules are chosen (in the tool set modules), and a held-out half, which
is only reported (in ``heldout/``, never read while tuning; its turns are
printed without their texts unless ``--show-held-out``).

The fresh half (``fresh/``, issue 54) covers every tool set, including eight from
BFCL's live function documents (``elsewhere/``); it is never printed, only counted.
The team tool sets' development and held-out requests also come in German and Spanish
(``languages/``, ``--language``).

    python -m bench.matrix                       # both halves, every cell
    python -m bench.matrix --half all --language all   # dev, held-out, fresh; en, de, es
    python -m bench.matrix --half dev            # the development half only
    python -m bench.matrix --tool-set calendar --prompt none --kind twice
"""
