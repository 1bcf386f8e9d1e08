"""Scorers: MaxMatch (M2), ERRANT-style, CGED and CGEC metrics."""
