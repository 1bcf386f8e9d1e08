"""ChERRANT's scorer (MuCGEC's compare_m2_for_evaluation.py), and char-level annotation
of a plain-text hypothesis."""
