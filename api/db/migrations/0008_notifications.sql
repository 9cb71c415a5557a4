-- Notification settings, the mails they sent and mailbox-health incidents (docs/notifications.md).

create table notification_settings (
  id serial primary key,
  name text not null,
  source_type_id integer not null check (source_type_id between 1 and 4),
  -- the source in the type's table; null: every source of the type
  source_id integer,
  -- the name when saved: a fallback for a source that no longer exists
  source_name text not null default '',
  notification_enabled boolean not null default false,
  notification_interval text not null
    check (notification_interval in ('Daily', 'Weekly', 'Monthly', 'Custom', 'None')),
  notification_day_of_week integer check (notification_day_of_week between 1 and 7),
  cron_expression text not null default '',
  -- IANA zone the schedule runs in (the server's at save time when none was given)
  time_zone text not null,
  include_status_changes boolean not null default true,
  include_quantity_changes boolean not null default true,
  include_zero_quantity_alerts boolean not null default false,
  include_daily_breakdown boolean not null default true,
  include_item_details boolean not null default true,
  include_error_alerts boolean not null default true,
  include_success_alerts boolean not null default true,
  override_email_recipients text not null default '',
  email_subject_prefix text not null default '',
  consolidated_email boolean not null default false,
  -- when the mail server last accepted a scheduled mail of this setting
  last_notification_sent timestamptz,
  -- the due time last handled; before the first send, when the schedule was set up
  last_scheduled timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One row per mail the server accepted for a send job: a retried job skips the mails it already
-- delivered, so a failure after the first of several mails never sends that one twice.
create table notification_deliveries (
  key text primary key,
  recipients text not null,
  subject text not null,
  accepted_at timestamptz not null default now()
);

-- Mailbox-health incidents already alerted (key: mailbox-health:<id>:<last successful poll>).
create table notification_incidents (
  key text primary key,
  email_source_id integer not null,
  alerted_at timestamptz not null default now()
);
