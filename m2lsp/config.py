"""One frozen, defaulted configuration tree, fed alike by `[tool.m2lsp]` in pyproject.toml,
CLI flags and the language server's initializationOptions / workspace configuration.

Keys are the same everywhere (kebab-case; the server also accepts camelCase).  A bad value
is logged and replaced by its default; it never stops the program.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import m2lsp.arguments as arguments
import m2lsp.defaults as defaults
from m2lsp.arguments import converter
from m2lsp.errors import UsageError
from m2lsp.severity import Severity

TAXONOMIES = ("auto", "errant", "nucle", "cherrant", "any")


@dataclass(frozen=True)
class LintSettings:
    """Which rules run and how they judge."""

    select: tuple[str, ...] = ("ALL",)
    """Rule codes or code prefixes to run (`ALL`, `M`, `M1`, `M101`)."""
    ignore: tuple[str, ...] = ()
    """Rule codes or prefixes not to run; wins over `select`."""
    taxonomy: str = "auto"
    """Error-type taxonomy for M2 files: auto (detected per file), errant, nucle, cherrant,
    or any (no type check)."""
    extra_types: tuple[str, ...] = ()
    """Error types accepted in addition to the taxonomy's."""
    severity: tuple[tuple[str, Severity], ...] = ()
    """Severity overrides, rule code to severity."""

    def severity_of(self, code: str, default: Severity) -> Severity:
        for key, value in self.severity:
            if key == code:
                return value
        return default

    def selects(self, code: str, opt_in: bool = False) -> bool:
        """Whether rule `code` runs (longest matching prefix decides, ignore wins ties).
        An opt-in rule runs only when a selected prefix of two or more characters names it
        (`M5`, `M501`), not under `ALL` or its format's letter."""
        chosen = _longest_prefix(code, self.select)
        dropped = _longest_prefix(code, self.ignore)
        if opt_in and chosen < 2:
            return False
        return chosen >= 0 and chosen > dropped


def _longest_prefix(code: str, patterns: tuple[str, ...]) -> int:
    best = -1
    for pattern in patterns:
        if pattern == "ALL":
            best = max(best, 0)
        elif code.startswith(pattern):
            best = max(best, len(pattern))
    return best


@dataclass(frozen=True)
class ScoreSettings:
    """How scores are computed (defaults are the NUS M2 scorer's)."""

    max_unchanged_words: int = defaults.MAX_UNCHANGED_WORDS
    """Longest run of unchanged tokens inside one system edit."""
    beta: float = defaults.BETA
    """Weight of recall in the F-score."""
    ignore_whitespace_casing: bool = False
    """Drop system edits that only change whitespace or case."""
    metric: str = defaults.METRIC
    """Default metric: m2, errant, cherrant, cged, cgec, gleu, green, cleme, impara, some,
    scribendi, bertscore, gotoscorer, pt-errant, pt-m2, llm-s or llm-e."""
    spacy_model: str | None = None
    """The spaCy pipeline ERRANT annotates plain-text English with (None: not named, so
    en_core_web_sm, or the one English pipeline installed when it is not)."""
    spacy_models: tuple[tuple[str, str], ...] = ()
    """The spaCy pipeline of each other language ERRANT annotates (`--lang`), by code."""
    cherrant_data: str | None = None
    """The data/ folder of a ChERRANT checkout (its tables) for Chinese annotation."""
    meta_eval_data: str | None = None
    """The folder holding SEEDA's and GJG15's releases (seeda/, gjg15/) for meta-eval."""


@dataclass(frozen=True)
class EditorSettings:
    """How the language server shows results."""

    max_diagnostics: int = 1000
    """At most this many diagnostics per document (0: all): the most severe, then those
    nearest the last edit, and one note saying how many more `m2lsp check` lists.  VS Code
    keeps at most 1,000 markers per file; more costs every keystroke and shows nothing."""
    score_marks: tuple[tuple[str, Severity | None], ...] = (
        ("TP", Severity.HINT), ("FP", Severity.INFO), ("FN", Severity.INFO))
    """How live scores mark edits: found (TP), wrong (FP), missed (FN); None: not marked."""
    annotation_type: str = "UNK"
    """The error type "Annotate from a correction…" gives edits no engine types."""
    token_numbers: str = "block"
    """Token numbers on S lines: `always`, in the `block` of the cursor, or `never`."""
    adjudicator: str = "0"
    """The annotator adjudication writes to ("Adopt annotator N's edits as annotator K")."""

    def score_mark(self, kind: str) -> Severity | None:
        return dict(self.score_marks).get(kind)


@dataclass(frozen=True)
class Config:
    lint: LintSettings = field(default_factory=LintSettings)
    score: ScoreSettings = field(default_factory=ScoreSettings)
    editor: EditorSettings = field(default_factory=EditorSettings)


# ---------------------------------------------------------------------------------------
# Reading settings from mappings (pyproject, LSP)

def _codes(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of rule codes")
    return tuple(v.strip().upper() if v.strip().upper() != "ALL" else "ALL" for v in value)


def _taxonomy(value: Any) -> str:
    if not isinstance(value, str) or value.lower() not in TAXONOMIES:
        raise ValueError(f"expected one of {', '.join(TAXONOMIES)}")
    return value.lower()


def _strings(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError("expected a list of strings")
    return tuple(value)


def _severities(value: Any) -> tuple[tuple[str, Severity], ...]:
    if not isinstance(value, Mapping):
        raise ValueError("expected a table of rule code = severity")
    return tuple((str(k).upper(), Severity.parse(str(v))) for k, v in value.items())


SCORE_MARKS = ("TP", "FP", "FN")


def _token_numbers(value: Any) -> str:
    if value not in ("always", "block", "never"):
        raise ValueError("expected always, block or never")
    return str(value)


def _annotator_id(value: Any) -> str:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(
        value, bool) else ""
    if not text.isdigit():
        raise ValueError("expected an annotator id (a non-negative integer)")
    return str(int(text))


def _score_marks(value: Any) -> tuple[tuple[str, Severity | None], ...]:
    """{"TP": "off", "FP": "warning"}: over the defaults; `off` marks nothing."""
    if not isinstance(value, Mapping):
        raise ValueError("expected a table of TP / FP / FN = severity or off")
    marks = dict(EditorSettings.score_marks)
    for key, level in value.items():
        kind = str(key).upper()
        if kind not in SCORE_MARKS:
            raise ValueError(f"{key!r} is not TP, FP or FN")
        marks[kind] = None if str(level).lower() == "off" else Severity.parse(str(level))
    return tuple(marks.items())


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError("expected a non-negative integer")
    return value


def _pipelines(value: Any) -> tuple[tuple[str, str], ...]:
    """{fr = "fr_core_news_sm", es = "es_core_news_sm"}: a pipeline's name by language."""
    if not isinstance(value, Mapping):
        raise ValueError('expected a table of language = "pipeline name"')
    found = []
    for lang, model in value.items():
        if not isinstance(lang, str) or not (lang.isalpha() and lang.islower()
                                             and 2 <= len(lang) <= 3):
            raise ValueError(f"{lang!r} is not a language code (fr, es, cs, ...)")
        found.append((lang, _name(model)))
    return tuple(found)


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a name")
    return value.strip()


def _error_type(value: Any) -> str:
    name = _name(value)
    if "|||" in name or len(name.split()) != 1:
        raise ValueError("expected an error type: one word without |||")
    return name


def _metric(value: Any) -> str:
    """A metric's name (whether one is registered, the caller checks with the registry's
    names, `metrics` below: the settings sit under the scoring package, not above it)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected the name of a metric")
    return value.strip()


@dataclass(frozen=True)
class Option:
    """One configuration key: where it goes, how it is read, what it means."""

    key: str
    section: str
    field: str
    convert: Callable[[Any], Any]
    doc: str


OPTIONS: tuple[Option, ...] = (
    Option("select", "lint", "select", _codes,
           "Rule codes or code prefixes to run (ALL, M, M1, M101)."),
    Option("ignore", "lint", "ignore", _codes,
           "Rule codes or prefixes not to run; wins over select."),
    Option("taxonomy", "lint", "taxonomy", _taxonomy,
           "Error-type taxonomy of M2 files: auto, errant, nucle, cherrant or any."),
    Option("extra-types", "lint", "extra_types", _strings,
           "Error types accepted in addition to the taxonomy's."),
    Option("severity", "lint", "severity", _severities,
           "Severity overrides: a table of rule code = error | warning | info | hint."),
    Option("max-unchanged-words", "score", "max_unchanged_words",
           converter(arguments.UNCHANGED_WORDS),
           "Longest run of unchanged tokens inside one system edit (M2 scorer)."),
    Option("beta", "score", "beta", converter(arguments.BETA),
           "Weight of recall in the F-score."),
    Option("ignore-whitespace-casing", "score", "ignore_whitespace_casing", _boolean,
           "Drop system edits that only change whitespace or case (M2 scorer)."),
    Option("metric", "score", "metric", _metric,
           "Default metric of `m2lsp score`, `m2lsp compare` and in-editor scoring: m2, "
           "errant, cherrant, cged, cgec, gleu, green, cleme, impara, some, scribendi, "
           "bertscore, gotoscorer, pt-errant, pt-m2, llm-s or llm-e. The last nine score on "
           "the command line and in the API, not in the editor."),
    Option("spacy-model", "score", "spacy_model", _name,
           "The spaCy pipeline ERRANT annotates plain-text English with (default: "
           "en_core_web_sm; any installed pipeline's name)."),
    Option("spacy-models", "score", "spacy_models", _pipelines,
           "The spaCy pipeline of each other language `--lang` annotates, a table by "
           'language code: {fr = "fr_core_news_sm", es = "es_core_news_sm"}.'),
    Option("cherrant-data", "score", "cherrant_data", _name,
           "The data/ folder of a ChERRANT checkout, whose tables (cilin.txt, "
           "confusion_dict.txt) Chinese char-level annotation reads; relative to the "
           "pyproject.toml that sets it (default: the environment variable "
           "M2LSP_CHERRANT_DATA)."),
    Option("meta-eval-data", "score", "meta_eval_data", _name,
           "The folder holding the human judgments `m2lsp meta-eval` reads (seeda/ and "
           "gjg15/, as released); relative to the pyproject.toml that sets it (default: the "
           "environment variable M2LSP_META_EVAL_DATA)."),
    Option("max-diagnostics", "editor", "max_diagnostics", _positive_int,
           "Language server: at most this many diagnostics per document (0: all), the most "
           "severe and those nearest the last edit first."),
    Option("score-marks", "editor", "score_marks", _score_marks,
           "Language server: how live scores mark found (TP), wrong (FP) and missed (FN) "
           "edits: a table of TP / FP / FN = error | warning | info | hint | off (default: "
           "TP hint, FP and FN info)."),
    Option("token-numbers", "editor", "token_numbers", _token_numbers,
           "Language server: each token's number shown before it on S lines (inlay hints): "
           "always, in the block of the cursor (block, the default), or never."),
    Option("adjudicator", "editor", "adjudicator", _annotator_id,
           "Language server: the annotator whose edits adjudication writes (\"Adopt "
           "annotator N's edits as annotator K\", \"Accept this edit into annotator K\"; "
           "default: 0)."),
    Option("annotation-type", "editor", "annotation_type", _error_type,
           "Language server: the error type \"Annotate from a correction…\" gives its edits "
           "where no engine types them (ERRANT for English, ChERRANT for char-level "
           "Chinese; default: UNK)."),
)
SECTIONS = {"lint": LintSettings, "score": ScoreSettings, "editor": EditorSettings}
KEYS = {option.key: option for option in OPTIONS}


def _kebab(key: str) -> str:
    """`maxUnchangedWords` and `max_unchanged_words` -> `max-unchanged-words`."""
    out = []
    for ch in key:
        if ch.isupper():
            out.append("-" + ch.lower())
        else:
            out.append("-" if ch == "_" else ch)
    return "".join(out)


# settings of the editor clients in the same `m2lsp` section, not the server's
CLIENT_KEYS = frozenset({"server", "trace"})


def config_from_mapping(values: Mapping[str, Any], base: Config | None = None,
                        origin: str = "settings", strict: bool = False,
                        metrics: Collection[str] | None = None) -> Config:
    """Apply `values` on top of `base`; bad keys and values are logged and skipped (the
    server), or with `strict` a UsageError (the command line: exit 2).  `metrics`: the
    registered metric names (from the registry) a `metric` value must be one of."""
    config = base or Config()
    updates: dict[str, dict[str, Any]] = {name: {} for name in SECTIONS}
    for raw_key, value in values.items():
        key = _kebab(str(raw_key))
        if key in CLIENT_KEYS:
            continue
        if key not in KEYS:
            hint = _closest(key)
            _complain(strict, f"{origin}: unknown m2lsp option {raw_key!r}{hint}",
                      "%s: unknown m2lsp option %r ignored%s", origin, raw_key, hint)
            continue
        option = KEYS[key]
        try:
            updates[option.section][option.field] = _converted(option, value, metrics)
        except (ValueError, TypeError) as exc:
            _complain(strict, f"{origin}: option {raw_key!r} = {value!r} is invalid ({exc})",
                      "%s: option %r = %r is invalid (%s); using the default",
                      origin, raw_key, value, exc)
    return Config(**{name: replace(getattr(config, name), **updates[name])
                     for name in SECTIONS})


def _closest(key: str) -> str:
    """` (did you mean 'beta'?)` for a key close to a known one, else ''."""
    import difflib

    close = difflib.get_close_matches(key, list(KEYS), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _converted(option: Option, value: Any, metrics: Collection[str] | None) -> Any:
    converted = option.convert(value)
    if option.key == "metric" and metrics is not None and converted not in metrics:
        raise ValueError("expected one of " + ", ".join(metrics))
    return converted


def _complain(strict: bool, error: str, *warning: Any) -> None:
    if strict:
        raise UsageError(error)
    _log_warning(*warning)


def find_pyproject(start: Path, strict: bool = False) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.m2lsp] table.  One
    that cannot be read but names `tool.m2lsp` is m2lsp's, broken: `strict` (the command
    line) refuses it (UsageError naming the file and line), else it is logged and passed
    over."""
    start = start.resolve()
    for folder in [start, *start.parents] if start.is_dir() else start.parents:
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _m2lsp_table(candidate, strict, ours=True) is not None:
            return candidate
    return None


def _m2lsp_table(path: Path, strict: bool = False, ours: bool = False,
                 ) -> dict[str, Any] | None:
    """The [tool.m2lsp] table of `path` (None: none, or unreadable, which `strict` refuses;
    with `ours`, only a file that names tool.m2lsp is refused or logged)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _unreadable(path, f"cannot read ({exc})", strict, exc)
        return None
    if ours and "m2lsp" not in text:
        return None  # no [tool.m2lsp] table, nor a broken one: no TOML parser needed
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        if ours and "tool.m2lsp" not in text:
            return None  # another tool's broken file: not m2lsp's to judge
        _unreadable(_where(path, exc), f"not valid TOML: {exc}", strict, exc)
        return None
    table = data.get("tool", {}).get("m2lsp")
    return table if isinstance(table, dict) else None


def _where(path: Path, exc: ValueError) -> str:
    """`path:line:column` from the parser's message, else the path."""
    import re

    found = re.search(r"at line (\d+), column (\d+)", str(exc))
    return f"{path}:{found.group(1)}:{found.group(2)}" if found else str(path)


def _unreadable(where: Path | str, why: str, strict: bool, exc: Exception) -> None:
    if strict:
        raise UsageError(f"{where}: {why}; its [tool.m2lsp] settings cannot be used "
                         "(fix it, or name another file with --config)") from exc
    _log_warning("%s: %s; its [tool.m2lsp] settings are ignored", where, why)


def _log_warning(*args: Any) -> None:
    from m2lsp.logs import logger  # only when there is something to say

    logger(__name__).warning(*args)


def load_config(start: Path | None = None, explicit: Path | None = None,
                strict: bool = False, metrics: Collection[str] | None = None) -> Config:
    """The configuration from `explicit` or the pyproject.toml found from `start` (`strict`:
    a bad key or value is a UsageError, as on the command line; `metrics`: see
    `config_from_mapping`)."""
    path = explicit or (find_pyproject(start, strict) if start is not None else None)
    if path is None:
        return Config()
    if explicit is not None and not explicit.is_file():
        raise UsageError(f"--config {explicit}: no such file")
    table = _m2lsp_table(path, strict=strict and explicit is not None) or {}
    config = config_from_mapping(table, origin=str(path), strict=strict, metrics=metrics)
    return _anchored(config, path.parent)


def _anchored(config: Config, folder: Path) -> Config:
    """Paths in the settings of a file made relative to that file's folder."""
    score = config.score
    return replace(config, score=replace(
        score, cherrant_data=_relative_to(folder, score.cherrant_data),
        meta_eval_data=_relative_to(folder, score.meta_eval_data)))


def _relative_to(folder: Path, data: str | None) -> str | None:
    if data is None or Path(data).expanduser().is_absolute():
        return data
    return str(folder / data)


def config_for(paths: Sequence[Path], explicit: Path | None = None,
               metrics: Collection[str] | None = None) -> Config:
    """Every command's one lookup (as ruff's): `explicit` (--config) wins; else the nearest
    pyproject.toml with a [tool.m2lsp] table above the first named file that has one; else
    the one above the current folder.  Strict, as on the command line: a bad key or value
    is a UsageError (exit 2)."""
    found = explicit if explicit is not None else find_config(paths)
    if found is None:
        return Config()
    return load_config(explicit=found, strict=True, metrics=metrics)


def find_config(paths: Sequence[Path]) -> Path | None:
    """The pyproject.toml `config_for` reads (None: there is none, the defaults apply)."""
    for path in paths:
        start = path if path.exists() else path.parent
        if (found := find_pyproject(start, strict=True)) is not None:
            return found
    return find_pyproject(Path.cwd(), strict=True)


def default_value(option: Option) -> Any:
    """The default of one option."""
    owner = SECTIONS[option.section]
    return next(f.default for f in fields(owner) if f.name == option.field)
