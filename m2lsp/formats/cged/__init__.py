"""NLP-TEA CGED in its three forms: SGML/XML essays (`parser.py`), truth and result lines
(`truth_parser.py`) and test input (`input_parser.py`), one model for the three
(`model.py`); conversions to and from char-level M2 (`conversion.py`) and the SGML and
truth writers (`writer.py`).  Rules: `m2lsp.rules.cged`, `cged_truth`, `cged_input`."""
