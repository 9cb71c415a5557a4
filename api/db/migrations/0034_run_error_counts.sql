-- Two reads whose cost grew with the data rather than with their answer (docs/architecture.md,
-- "Calls whose cost grows with the data rather than with the answer"):
-- * Run lists (the spec's import runs, the run history) showed each run's row error count as
--   jsonb_array_length(row_errors): every listed run's whole error list (tens of thousands of rows
--   for a broken file, several MB) was read and decompressed to count it. The count is now kept
--   beside the list, computed by the database whenever the list is written.
-- * The daily inventory silence check asks for each source's newest received file; the runs were
--   indexed by creation time only, so it read every run the source ever had.
alter table import_runs
  add column row_error_count integer generated always as (jsonb_array_length(row_errors)) stored;
create index import_runs_source_received_idx on import_runs (feed, source_id, received_at);
