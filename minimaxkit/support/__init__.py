"""Small pieces the rest of the kit stands on: package namespaces that import on first use
(:mod:`.lazy`), pausing the cyclic garbage collector (:mod:`.gc_pause`), the old import
paths of moved modules (:mod:`.aliases`), a feedback line folded for the page (:mod:`.text`)
and CSV fields no spreadsheet runs as a formula (:mod:`.csv_safe`)."""
