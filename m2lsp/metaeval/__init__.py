"""Meta-evaluation: how well a metric's scores agree with human judgments of the same
systems (SEEDA, GJG15), at the system level (correlations with human rankings) and at the
sentence level (agreement with each human pairwise preference)."""
