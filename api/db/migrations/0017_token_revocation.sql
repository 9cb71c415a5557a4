-- Access tokens end with their user's sessions (issue 28): a deactivation, an admin's password
-- reset, the user's password change or reset revoke them, and a reactivation revives none. The
-- reason is kept like a session's. Tokens of users who are inactive now were only hidden by the
-- user's flag and would have worked again on reactivation: they are revoked here.
alter table access_tokens add column revoked_reason text;
update access_tokens set revoked_at = now(), revoked_reason = 'user deactivated'
 where revoked_at is null and user_id in (select id from users where not active_status);
