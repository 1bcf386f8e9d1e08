"""ERRANT-style span-based scores, identical to errant_compare 3.0.2."""
