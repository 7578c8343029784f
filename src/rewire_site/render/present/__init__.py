"""Presentation render/ owns: how values, fields and labels read on a page. derive/
returns facts; the helpers here turn them into reader text (issue 26), one job a module:

- `numbers`: display rounding, counts with their noun, a result's value or status, units
- `durations`: wall times; `fields`: a record's field path in words
- `labels`: evidence origins, a protocol's metric in one line; `metrics`: metric names,
  column headers, per-column values, a reading's settings
- `missing`: why a field has no value; `review`: a record's review; `citations`: a
  citation resolved against its source
- `values`: a result's value on its metric's scale; `agreement`: an agreement in words;
  `flags`: concern flags as a page shows them; `standing`: a result's standing in its
  column
"""
