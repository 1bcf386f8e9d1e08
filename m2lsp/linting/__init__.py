"""Running the rules: on a text (`run`), on a document as it is edited (`incremental`), on
files on disk with their fixes (`files`, `fixes`)."""
