"""CGED's score kept current in the editor: the result against the open truth (or SGML)
file, scored again whole on every change of either (nlptea16cged.jar's counting, as
`m2lsp.score` with metric cged).  The marks are the truth lines' (found, missed, agreed);
the status is the position level's P/R/F1 and the headline every level's F1."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import Any

from m2lsp.scoring.metric import EditorJob, LiveBase, drain
from m2lsp.scoring.review import LiveView


class CgedLive(LiveBase):
    def __init__(self, metric: Any, config: Any) -> None:
        self.metric, self.config = metric, config

    def update(self, job: EditorJob) -> LiveView:
        return drain(self.steps(job))

    def steps(self, job: EditorJob) -> Generator[int, None, LiveView]:
        found = yield from self.metric.in_editor(replace(job, settings=self.config))
        data = found.data
        position = data["position"]
        number = {k: v if isinstance(v, int | float) else 0.0
                  for k, v in position.items()}
        return LiveView(number["precision"], number["recall"], number["f1"], 1.0,
                        data["signature"], {"false_positive_rate": data["false_positive_rate"],
                                            **{level: data[level] for level in
                                               ("detection", "identification", "position")}},
                        (), len(job.lines), marks=tuple(found.marks),
                        summary=found.message.split("  (")[0])
