"""MaxMatch (M2): the NUS M2 scorer 3.2, exactly, and fast (`maxmatch`, `lattice`)."""
