"""The gold and each layer, exported through the writers `m2lsp convert` uses: M2 (the
file itself, which `m2lsp check` reads as the team does), BEA-2019 JSON (one essay a
sentence) and brat (a zip of NAME.txt, NAME.ann and the configurations brat shows the
types with).  What a format cannot hold refuses the export, naming each sentence, unless
the caller asks for the rest anyway (`m2lsp convert --skip-unconvertible`)."""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from m2lsp.errors import UsageError
from m2lsp.web.names import is_name
from m2lsp.web.project import Project, read_document

FORMATS = ("m2", "bea-json", "brat")
GOLD = "gold"
_SHOWN = 5  # problems named in a refusal


@dataclass(frozen=True)
class Export:
    """A file to download."""

    filename: str
    media_type: str
    content: bytes
    skipped: int = 0  # problems left out, when asked to go on


def exported_path(project: Project, which: str) -> Path:
    """The gold (`gold`) or a layer (an annotator's name); LookupError when there is
    none."""
    if which == GOLD:
        path = project.gold
    elif is_name(which) and which in project.layer_names():
        path = project.layer(which)
    else:
        raise LookupError(which)
    if not path.is_file():
        raise LookupError(which)
    return path


def exported(project: Project, which: str, kind: str, skip: bool = False) -> Export:
    """`which` (gold, or an annotator's name) written as `kind` (one of FORMATS)."""
    if kind not in FORMATS:
        raise UsageError(f"format is one of {', '.join(FORMATS)}")
    path = exported_path(project, which)
    stem = f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', project.name)}-{which}"  # a header's word
    if kind == "m2":
        return Export(f"{stem}.m2", "text/plain; charset=utf-8", path.read_bytes())
    problems: list = []
    document = read_document(path)
    if kind == "bea-json":
        from m2lsp.formats.bea_json.conversion import from_m2

        text = from_m2(document, problems)
        _refuse(problems, skip)
        return Export(f"{stem}.jsonl", "application/x-ndjson; charset=utf-8",
                      text.encode("utf-8"), len(problems))
    from m2lsp.formats.brat.conversion import configurations, to_brat

    txt, ann = to_brat(document, problems)
    _refuse(problems, skip)
    files = {f"{stem}.txt": txt, f"{stem}.ann": ann, **configurations(ann)}
    return Export(f"{stem}.zip", "application/zip", _zipped(files), len(problems))


def _refuse(problems: list, skip: bool) -> None:
    if problems and not skip:
        named = "; ".join(f"{p.where}: {p.reason}" for p in problems[:_SHOWN])
        more = f" (and {len(problems) - _SHOWN} more)" if len(problems) > _SHOWN else ""
        raise UsageError(f"{len(problems)} problem(s) the format cannot hold: {named}{more}; "
                         "nothing exported (skip=1 exports the rest)")


def _zipped(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return out.getvalue()
