-- The dashboard in one statement (issue 29; docs/dashboard.md, "Cost"). Its reads were already
-- one index probe per source, but six statements cost six round trips and six plannings per call:
-- through PGlite's worker the planning alone was about 4 ms of a 5 ms budget. This function
-- returns every fact of the call as one JSON document; PL/pgSQL keeps the plan of its statement
-- for the connection (a generic plan: the areas only decide which parts run), so a call is one
-- round trip and no planning after a connection's first call.

-- A vendor's oldest row waiting for an e-mail: one probe instead of reading every waiting row
-- (non-daily vendors' rows wait for days; submission_rows_unsent_idx had the vendor only).
create index submission_rows_waiting_idx on submission_rows (vendor_source_id, received_at)
  where submission_id is null;

-- The facts of the dashboard's areas (api/dashboard/lines.ts reads them): mailboxes (always),
-- sftp (inventory's SFTP pull schedules), "order-tracking", "inventory", "order-submission",
-- "vendor". An area not in `areas` is null.
create function dashboard_facts(areas text[]) returns json language plpgsql stable
  set plan_cache_mode = force_generic_plan as $$
begin
  return json_build_object(
    'mailboxes', (select coalesce(json_agg(t), '[]') from (
      select e.id, e.email, e.active_status as active, e.deleted_at is not null as deleted,
             (e.incoming_server <> '' or e.is_msal) as pollable, e.created_at as "createdAt",
             m.last_success_at as "lastSuccessAt", m.last_error as "lastError",
             m.last_error_at as "lastErrorAt",
             coalesce(l.mode = 'idle' and l.lease_until > now(), false) as listening,
             js.next_run_at as "nextRunAt", js.every_seconds as "everySeconds",
             mm.subject as "lastSubject", mm.claimed_at as "lastMessageAt"
        from email_sources e
        left join mailbox_state m on m.email_source_id = e.id and m.mailbox = 'INBOX'
        left join mailbox_listeners l on l.email_source_id = e.id
        left join job_schedules js on js.name = 'mail-poll:' || e.id
        left join lateral (
          select subject, claimed_at from mail_messages
           where email_source_id = e.id and status = 'matched'
           order by claimed_at desc limit 1) mm on true) t),
    'sftp', case when 'inventory' = any(areas) then (select coalesce(json_agg(t), '[]') from (
      select (payload->>'sourceId')::integer as "sourceId", next_run_at as "nextRunAt",
             every_seconds as "everySeconds"
        from job_schedules where kind = 'inventory-sftp-pull') t) end,
    'order-tracking', case when 'order-tracking' = any(areas) then (
      select coalesce(json_agg(t), '[]') from (
      select s.id, s.source_name as name, s.active_status as active, s.created_at as "createdAt",
             s.email_source_id as "emailSourceId", null::integer as "alertDays", false as sftp,
             r.status as "runStatus", r.file_name as "fileName", r.received_at as "receivedAt",
             r.finished_at as "finishedAt", r.counts, r.error,
             null::text as "deliveryStatus", null::text as "deliveryError"
        from order_tracking_sources s
        left join lateral (
          select status, file_name, received_at, finished_at, counts, error from import_runs
           where feed = 'order-tracking' and source_id = s.id
           order by created_at desc limit 1) r on true
       where not s.deleted_status) t) end,
    'inventory', case when 'inventory' = any(areas) then (
      select coalesce(json_agg(t), '[]') from (
      select s.id, s.source_name as name, s.active_status as active, s.created_at as "createdAt",
             s.email_source_id as "emailSourceId",
             s.days_until_no_update_notification as "alertDays",
             (s.sftp_server_address <> '' and s.sftp_inbox_folder <> '') as sftp,
             r.status as "runStatus", r.file_name as "fileName", r.received_at as "receivedAt",
             r.finished_at as "finishedAt", r.counts, r.error,
             ir.delivery_status as "deliveryStatus", ir.delivery_error as "deliveryError"
        from inventory_sources s
        left join lateral (
          select id, status, file_name, received_at, finished_at, counts, error from import_runs
           where feed = 'inventory' and source_id = s.id
           order by created_at desc limit 1) r on true
        left join inventory_runs ir on ir.import_run_id = r.id
       where not s.deleted_status) t) end,
    'order-submission', case when 'order-submission' = any(areas) then (
      select coalesce(json_agg(t), '[]') from (
      select s.id, s.source_name as name, s.active_status as active, s.created_at as "createdAt",
             s.email_source_id as "emailSourceId", null::integer as "alertDays", false as sftp,
             r.status as "runStatus", r.file_name as "fileName", r.received_at as "receivedAt",
             r.finished_at as "finishedAt", r.counts, r.error,
             null::text as "deliveryStatus", null::text as "deliveryError"
        from order_submission_sources s
        left join lateral (
          select status, file_name, received_at, finished_at, counts, error from import_runs
           where feed = 'order-submission' and source_id = s.id
           order by created_at desc limit 1) r on true
       where not s.deleted_status) t) end,
    'vendor', case when 'vendor' = any(areas) then (select coalesce(json_agg(t), '[]') from (
      select v.id, v.vendor_name_from_file as name, v.active_status as active,
             o.active_status as "sourceActive", v.created_at as "createdAt",
             o.id as "orderSubmissionSourceId", o.source_name as "sourceName",
             v.vendor_wants_non_daily_submission as "nonDaily",
             v.vendor_custom_submit_every_x_day as "everyDays",
             s.status, s.created_at as "createdAtSubmission", s.sent_at as "sentAt",
             s.row_count as "rowCount", s.last_error as "lastError", f.file_name as "fileName",
             (select w.received_at from submission_rows w
               where w.vendor_source_id = v.id and w.submission_id is null
               order by w.received_at limit 1) as "oldestWaiting"
        from vendor_sources v
        join order_submission_sources o on o.id = v.order_submission_source_id
        left join lateral (
          select id, status, created_at, sent_at, row_count, last_error from submissions
           where vendor_source_id = v.id order by created_at desc limit 1) s on true
        left join lateral (
          select file_name from submission_files where submission_id = s.id
           order by position limit 1) f on true
       where not v.deleted_status) t) end);
end;
$$;
