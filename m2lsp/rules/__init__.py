"""The rules, one module per family (`registry` imports them all and lists them)."""
