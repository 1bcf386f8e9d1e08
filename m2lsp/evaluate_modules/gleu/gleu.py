"""m2lsp's `gleu` metric for Hugging Face `evaluate` (see m2lsp.evaluate_modules).

The module, not its class, is imported: `evaluate` takes the first metric class a script
holds as the script's own."""

import m2lsp.evaluate_modules.base as base


class M2lspGleu(base.GecMetric):
    metric = "gleu"
