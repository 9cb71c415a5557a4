-- Per-user order tracking view settings: which columns the order list shows.

create table order_tracking_view_settings (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  -- column name -> shown; columns missing here count as shown
  enabled_columns jsonb not null default '{}'::jsonb,
  constraint order_tracking_view_settings_user_id_key unique (user_id)
);
