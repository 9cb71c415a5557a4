-- Alert channels besides e-mail (docs/notifications.md, "Webhooks"): a notification setting may
-- post to a webhook. The address and the signing key are secrets (a Slack or Teams address is
-- its own credential), stored encrypted like the mailbox passwords (api/secrets.ts); the column
-- names contain "secret" so that the activity log compares them without keeping values.

alter table notification_settings
  -- '' none, or the body format: plain JSON, Slack's or Microsoft Teams' incoming webhook
  add column webhook_preset text not null default ''
    check (webhook_preset in ('', 'json', 'slack', 'teams')),
  -- the webhook address, encrypted
  add column webhook_url_secret_enc text check (char_length(webhook_url_secret_enc) <= 8000),
  -- the address's host name, shown where the address itself is not
  add column webhook_host text not null default '' check (char_length(webhook_host) <= 253),
  -- the HMAC-SHA256 key, encrypted; null: the posts are not signed
  add column webhook_secret_enc text check (char_length(webhook_secret_enc) <= 4000);
