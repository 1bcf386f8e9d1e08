"""Models the tests make themselves (no hub here): seeded, randomly initialised BERT
encoders, BERT regressors and GPT-2 language models with tokenizers built from the words of
the texts they will read, saved with `save_pretrained` into a folder.  `size="base"` gives
BERT-base's shape (the benchmark); the default is a few thousand parameters."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
SHAPES = {"tiny": {"hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 2,
                   "intermediate_size": 64, "initializer_range": 0.6},
          "base": {"hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
                   "intermediate_size": 3072}}


def vocabulary(texts: Iterable[str], lower: bool = False) -> list[str]:
    """Special tokens, every character (as a start and as `##` continuation) and every
    word of `texts` (BERT's basic tokenizer's split: words and punctuation)."""
    words, chars = set(), set()
    for text in texts:
        text = text.lower() if lower else text
        for word in re.findall(r"\w+|[^\w\s]", text):
            words.add(word)
            chars.update(word)
    pieces = sorted(chars) + [f"##{c}" for c in sorted(chars)]
    return SPECIAL + pieces + sorted(words - chars)


def bert_tokenizer(folder: Path, texts: Iterable[str], lower: bool = False):
    from transformers import BertTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    vocab = folder / "vocab.txt"
    vocab.write_text("\n".join(vocabulary(texts, lower)) + "\n", encoding="utf-8")
    return BertTokenizerFast(vocab_file=str(vocab), do_lower_case=lower, model_max_length=512)


def bert(folder: Path, texts: Iterable[str], *, seed: int, head: str | None = None,
         labels: int = 1, size: str = "tiny", lower: bool = False) -> Path:
    """A BERT encoder (`head=None`), sequence classifier (`head="classifier"`, `labels`
    outputs) or masked LM (`head="masked"`) with random weights from `seed`, and its
    tokenizer, saved in `folder`."""
    import torch
    from transformers import (
        BertConfig,
        BertForMaskedLM,
        BertForSequenceClassification,
        BertModel,
    )

    tokenizer = bert_tokenizer(folder, texts, lower)
    config = BertConfig(vocab_size=len(tokenizer), max_position_embeddings=512,
                        num_labels=labels, **SHAPES[size])
    torch.manual_seed(seed)
    kinds = {None: BertModel, "classifier": BertForSequenceClassification,
             "masked": BertForMaskedLM}
    model = kinds[head](config)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def gpt2(folder: Path, texts: Iterable[str], *, seed: int, size: str = "tiny",
         positions: int = 1024) -> Path:
    """A GPT-2 language model with random weights and a byte-level BPE tokenizer trained on
    `texts`, saved in `folder`."""
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import GPT2Config, GPT2LMHeadModel, GPT2TokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    bpe = ByteLevelBPETokenizer()
    bpe.train_from_iterator(list(texts), vocab_size=600, min_frequency=1,
                            special_tokens=["<|endoftext|>"])
    bpe.save_model(str(folder))
    tokenizer = GPT2TokenizerFast(vocab_file=str(folder / "vocab.json"),
                                  merges_file=str(folder / "merges.txt"), model_max_length=1024)
    shape = SHAPES[size]
    config = GPT2Config(vocab_size=len(tokenizer), n_positions=positions,
                        n_embd=shape["hidden_size"], n_layer=shape["num_hidden_layers"],
                        n_head=shape["num_attention_heads"],
                        initializer_range=shape.get("initializer_range", 0.02))
    torch.manual_seed(seed)
    GPT2LMHeadModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
