"""`m2lsp report`: many systems against one gold, on one page (HTML) or in paper tables
(LaTeX, Markdown, CSV) and the JSON they are all drawn from.

`data` scores the systems through the metric registry (every number is the metric's own,
as `m2lsp score` prints it) and adds the bootstrap intervals, the pairwise tests with Holm's
correction and the cluster ranks (`significance`); `tables` and `page` only render that.
"""
