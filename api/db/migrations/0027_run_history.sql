-- The run history (docs/runs.md): the list across areas is newest first and the per-day series
-- read a window of days, so both need the runs by time. (feed, created_at) serves one area or
-- several (`feed = any(...)`, one range per feed); created_at alone serves the newest-first list
-- across areas. The existing (feed, source_id, created_at desc) serves one source.
create index import_runs_feed_created_idx on import_runs (feed, created_at);
create index import_runs_created_idx on import_runs (created_at);
-- Vendor e-mails in the history: newest first, all vendors (one vendor's are served by
-- submissions_vendor_created_idx of 0023, read backwards or forwards alike).
create index submissions_created_idx on submissions (created_at);
