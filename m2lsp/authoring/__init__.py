"""Authoring gold M2: what an annotator does to a file, as pure functions over the document
model (no pygls): adding an edit for a span of tokens and typing it, re-typing an edit,
realigning an annotator's edits to an edited correction (keeping what was set by hand),
merging and splitting annotators' files, listing where annotators disagree and adjudicating
it, and how far each annotator has got.  The language server's features and the commands
`merge`, `split` and `agree --disagreements` are thin adapters over these modules."""
