"""GLEU (Napoles et al. 2015, 2016): the JFLEG `eval/gleu.py`, exactly, and fast."""
