-- Every reference between sources has a foreign key (issue 10). E-mail sources are soft-deleted,
-- so a referenced row never goes away; deleting an e-mail source that a feed's source still reads
-- from is refused by the API (409 naming those sources, docs/mail_ingestion.md).
-- (import_runs.source_id is polymorphic, a source of the run's feed: no single table to point at.)
alter table order_tracking_sources
  add constraint order_tracking_sources_email_source_id_fkey
  foreign key (email_source_id) references email_sources (id) not valid;

-- Rows saved before the key existed may point at nothing: then the key holds for new and changed
-- rows only (such a source must pick an existing e-mail source on its next save), else it is
-- validated for every row.
do $$
begin
  if not exists (
    select 1 from order_tracking_sources s
     where not exists (select 1 from email_sources e where e.id = s.email_source_id)
  ) then
    alter table order_tracking_sources
      validate constraint order_tracking_sources_email_source_id_fkey;
  end if;
end
$$;
