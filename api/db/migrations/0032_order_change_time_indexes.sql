-- The home page's stats (orderUpdateStats) read the maintained counts by time only: the primary
-- keys start with the source, so each call read every row of both tables (kept 2–3 days by the
-- daily pruning, a row per write transaction and source: about 10,000 a day per source that
-- imports a million orders in 100-row batches). By time, a call reads the last 24 hours' hours
-- and the two edge hours' moments.
create index order_change_moments_at_idx on order_change_moments (at);
create index order_change_hours_hour_idx on order_change_hours (hour);
