"""UA-GEC's annotated texts (`{source=>target:::error_type=T}`): the model, the parser, and
the conversion to M2 and parallel text over the corpus's tokenised sentences.  Rules:
`m2lsp.rules.uagec`."""
