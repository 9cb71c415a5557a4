-- Failed polls in a row since the last success, for the notifications' mailbox-health alert
-- (MAILBOX_ALERT_FAILURES): a mailbox that keeps failing is an incident before it is stale.
alter table mailbox_state add column consecutive_failures integer not null default 0;
