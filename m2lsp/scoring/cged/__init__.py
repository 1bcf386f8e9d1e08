"""CGED: the NLP-TEA levels (nlptea15cged.jar, nlptea16cged.jar, evaluation.pl)."""
