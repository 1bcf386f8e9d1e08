"""ChERRANT's blocks read for `m2lsp explain --metric cherrant`: the source's characters
and the edits of the hypothesis's first alignment, as the English path reads ERRANT's."""

from __future__ import annotations

from m2lsp.annotation.edit_lists import Edit


def first_alignment(block: str) -> tuple[list[str], list[Edit]]:
    """A ChERRANT block's source tokens (its S line) and the edits of its first target's
    first alignment (`T0-A0`; noop out, a deletion's -NONE- read as nothing), as
    `edit_lists.Edit` records."""
    lines = block.splitlines()
    tokens = lines[0][2:].split(" ") if lines and lines[0].startswith("S ") else []
    edits: list[Edit] = []
    targets = 0
    for line in lines[1:]:
        if line.startswith("T"):
            targets += 1
            if targets > 1:
                break
        elif line.startswith("A "):
            fields = line[2:].split("|||")
            if fields[1] == "noop":
                continue
            start, end = (int(x) for x in fields[0].split())
            edits.append(Edit(start, end, "" if fields[2] == "-NONE-" else fields[2],
                              fields[1]))
    return tokens, edits
