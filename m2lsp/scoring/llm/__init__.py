"""What LLM-S and LLM-E (packages llm_s, llm_e) share: the `--llm-*` flags, and the metric
(`judged`)."""

from __future__ import annotations

import m2lsp.arguments as arguments
from m2lsp.scoring.metric import Flag

LOCAL_DEFAULT = "meta-llama/Llama-2-13b-chat-hf"  # gec-metrics' Hugging Face default
ENDPOINT_DEFAULT = "gpt-4o-mini-2024-07-18"  # gec-metrics' OpenAI default
TIMEOUT = arguments.Number(float, 0, 86_400, above=True)
"""Seconds for an endpoint's reply: more than none, at most a day."""

FLAGS = (
    Flag(("--llm-model",), "llm-s, llm-e: the judge, a local causal LM (a hub id or a folder; "
         f"default {LOCAL_DEFAULT}), or with --llm-endpoint the endpoint's model name "
         f"(default {ENDPOINT_DEFAULT})", {"default": None, "metavar": "MODEL",
                                          "dest": "llm_model"}),
    Flag(("--llm-endpoint",), "llm-s, llm-e: an OpenAI-compatible API's base URL (e.g. "
         "https://api.openai.com/v1) to ask instead of a local model; never required",
         {"default": None, "metavar": "URL", "dest": "llm_endpoint"}),
    Flag(("--llm-key-env",), "llm-s, llm-e: the environment variable holding the endpoint's "
         "key (default OPENAI_API_KEY)", {"default": "OPENAI_API_KEY", "metavar": "NAME",
                                          "dest": "llm_key_env"}),
    Flag(("--llm-cache",), "llm-s, llm-e: the replies' JSONL file, gec-metrics' cache format "
         "(read and appended; default: one a model in m2lsp's cache folder)",
         {"default": None, "metavar": "FILE", "dest": "llm_cache"}),
    Flag(("--llm-seed",), "llm-s, llm-e: the seed sent to an endpoint (default 777, as "
         "gec-metrics; a local model decodes greedily, whatever the seed)",
         {"type": arguments.SEED, "default": 777, "metavar": "N", "dest": "llm_seed"}),
    Flag(("--llm-criterion",), "llm-s, llm-e: one more sentence of instruction (LLM-E: "
         "difficulty, impact; LLM-S's criteria grammaticality, fluency, meaning change "
         "nothing, as in gec-metrics, whose LLM-S instruction has no place for them)",
         {"choices": ["grammaticality", "fluency", "meaning", "difficulty", "impact"],
          "default": None, "dest": "llm_criterion"}),
    Flag(("--llm-timeout",), "llm-s, llm-e: the most seconds an endpoint may take over one "
         "reply, from connecting to its last byte (default 120); a reply not whole by then "
         "is asked again, up to four tries in all", {"type": TIMEOUT, "default": 120.0,
                                                     "metavar": "SECONDS",
                                                     "dest": "llm_timeout"}),
    Flag(("--llm-no-cuda",), "llm-s, llm-e: run a local model on the CPU even where CUDA is "
         "available", {"action": "store_true", "dest": "llm_no_cuda"}),
)
