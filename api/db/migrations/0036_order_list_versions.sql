-- The order list's remembered page starts (api/order_tracking/page_seek.ts) are only right while
-- no order has come, gone or changed a sorted value. Each write that may move them counts here in
-- its own transaction, so a web process notices another process's import, delete or note within
-- a second (api/order_tracking/list_versions.ts) and forgets them, instead of trusting them for a
-- fixed time.
create table order_list_versions (
  name text primary key check (name in ('orders', 'notes')),
  version bigint not null default 0
);
insert into order_list_versions (name) values ('orders'), ('notes');
