"""A curation apart from the annotators: the curated gold is its own M2 file, a pure
function of the annotators' files and a record of decisions beside it.

- `keys`: how sentences and edits are named so that decisions and notes survive
  re-ordering, merging and splitting;
- `record`: the decision log (`GOLD.curation.jsonl`), one decision a line, appended;
- `state`: the curation itself: auto-merge of what every annotator agrees on, the decisions
  replayed, each sentence's state and the gold's text;
- `notes`: comments and "unsure" flags on edits and sentences (`FILE.notes.jsonl`).

Nothing here reads or writes a file: the command line and the editor do, over this room.
"""
