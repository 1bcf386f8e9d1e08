"""Edit attribution: each hypothesis edit's share of a sentence-level metric score (`m2lsp
explain`), by the four attributors of gec-metrics 0.1.2 (add, sub, Shapley, sampled
Shapley).  `attributors` plans which edit subsets to score and combines their scores;
`applying` makes a subset's sentence; `variants` scores the sentences with any metric that
scores sentences; `run` puts them together; `render` prints them."""
