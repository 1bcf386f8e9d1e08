"""The instructions of the LLM evaluators of Kobayashi et al. (BEA 2024), LLM-S (rate each
corrected sentence) and LLM-E (rate each correction's edits), byte for byte as gec-metrics
0.1.2's `LLMKobayashi24` gives them to a model (MIT licence, (c) 2024 gotutiyan): a cached
reply is found by the MD5 of the prompt, so one byte more or less and no reply of theirs is
found.  `[SOURCE]` and `[CORRECTION]` are replaced by the source and by the hypotheses, one
a line.  The instructions ask for keys `target1_score`, ...; the reply format that
gec-metrics constrains the model to (and reads) has `target_score1`, ...: both are kept as
they are."""

from __future__ import annotations

SENTENCE = '''The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of 1 point to a maximum of 5 points to each target based on the quality of the sentence (note that you can assign the same score multiple times).

# source
[SOURCE]

# targets
[CORRECTION]

# output format
The output should be a markdown code snippet formatted in the following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
'''  # noqa: E501

EDIT = '''The goal of this task is to rank the presented targets based on the quality of the sentences.
After reading the source sentence and target sentences, please assign a score from a minimum of 1 point to a maximum of 5 points to each target based on the quality of the sentence (note that you can assign the same score multiple times).
For targets without any edits, if the sentence is correct, they will be awarded 5 points; if there is an error, they will receive 1 point.
The edits in each target are indicated as follows:
Insert "the": [→the]
Delete "the": [the→]
Replace "the" with "a": [the→a]

# context
[SOURCE]

# targets
[CORRECTION]

# output format
The output should be a markdown code snippet formatted in the
following schema, including the leading and trailing "```json" and "```":
```json
{
"target1_score": int // assigned score for target 1
...
"targetN_score": int // assigned score for target N
}
```
'''  # noqa: E501

# a criterion's sentence goes before "\n\n# context": only LLM-E's instruction has that line,
# so LLM-S's criteria change nothing there (as in gec-metrics)
CRITERIA = {
    "llm-s": {
        "grammaticality": "Please evaluate each target with a focus on the grammaticality of "
                          "the sentence.",
        "fluency": "Please evaluate each target with a focus on the fluency of the sentence.",
        "meaning": "Please evaluate each target with a focus on preserving the meaning "
                   "between each target and the source, which is the middle sentence in the "
                   "context.",
    },
    "llm-e": {
        "difficulty": "Please evaluate each edit in the target with a focus on the difficulty "
                      "of corrections.",
        "impact": "Please evaluate each edit in the target with a focus on its impact on the "
                  "sentence.",
    },
}

SYSTEM_MESSAGE = "You are a helpful assistant."  # what an endpoint is sent first
