"""CGED: the NLP-TEA levels (nlptea15cged.jar, nlptea16cged.jar, evaluation.pl)."""

from __future__ import annotations

from m2lsp.scoring.metric import Declaration, Flag

DECLARATION = Declaration(
    "cged", "cged (NLP-TEA CGED levels; SYSTEM the result file, GOLD the truth file)",
    flags=(
        Flag(("--cged-report",), "cged: print the report of that year's official CGED tool, "
             "byte for byte (2014-2016: the jar's -o file; 2018: evaluation.pl's output)",
             {"choices": ["2014", "2015", "2016", "2018"]}),
        Flag(("--cged-report-file",), "cged: with --cged-report 2018, also write the report "
             "file evaluation.pl writes", {"metavar": "FILE"}),
        Flag(("--cged-counting",), "cged: official: as nlptea15cged.jar (one error per "
             "sentence); paper: false positives as the NLP-TEA 2015 overview counts them; "
             "2016: as nlptea16cged.jar (several errors per sentence). Default: by the truth "
             "file's format: 2014-2015's type words (Selection, Missing, ...) official, "
             "2016-2021's letters (S, M, R, W) 2016",
             {"choices": ["official", "paper", "2016"], "default": None}),
        Flag(("--cged-line-ends",), "cged: line ends of --cged-report (the official tools "
             "write the platform's; the recorded reports are CRLF)",
             {"choices": ["lf", "crlf"], "default": "lf"}),
    ), gold="CGED truth")
