-- A stored file's bytes in parts of at most 256 KiB (api/ingest/import_files.ts), each written and
-- read by a statement of its own: on the embedded database one statement holds the one connection,
-- and storing a 4.8 MB file in one statement held it 0.15–0.26 s, stalling every other user's
-- search (docs/architecture.md, "Files in parts"). Files stored before keep `bytes`.
create table import_file_parts (
  file_id bigint not null references import_files (id) on delete cascade,
  part integer not null,
  bytes bytea not null,
  primary key (file_id, part)
);
alter table import_files alter column bytes drop not null;
-- False while the parts are being written: a file is used only once every part is there.
alter table import_files add column stored boolean not null default true;
