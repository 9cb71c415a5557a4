-- Length limits: every string a contract accepts (shared/contract/fields.ts, MAX_LENGTH) has
-- the same maximum here, so that no path around the API (CLI, SQL, a future route) stores more.
-- See docs/limits.md.
--
-- The constraints are added NOT VALID: PostgreSQL checks every row inserted or updated from now
-- on, but does not scan the rows already stored, so a row saved before these limits (the
-- 20 MB username of issue 10) does not make this migration fail, and nothing is truncated
-- (truncating would lose data silently). Such a row must be shortened when it is next edited
-- (the API refuses the over-long value and a check violation is answered 422); docs/limits.md
-- gives the query that finds such rows and the `validate constraint` to run once they are fixed.


-- users: MAX_LENGTH.username, .email, .personName
alter table users add constraint users_username_length
  check (char_length(username) <= 100) not valid;
alter table users add constraint users_email_length
  check (char_length(email) <= 254) not valid;
alter table users add constraint users_first_name_length
  check (char_length(first_name) <= 100) not valid;
alter table users add constraint users_last_name_length
  check (char_length(last_name) <= 100) not valid;

-- email_sources: the mailbox login is often an address (.email); servers are host names;
-- the MSAL ids .name. password_enc holds `v1.<key id>.<base64 of iv + ciphertext + tag>` of a
-- secret of at most MAX_LENGTH.secret (1,000) UTF-16 units, at most 3,000 UTF-8 bytes: about
-- 4,050 characters, bounded here at 6,000.
alter table email_sources add constraint email_sources_username_length
  check (char_length(username) <= 254) not valid;
alter table email_sources add constraint email_sources_email_length
  check (char_length(email) <= 254) not valid;
alter table email_sources add constraint email_sources_password_enc_length
  check (char_length(password_enc) <= 6000) not valid;
alter table email_sources add constraint email_sources_incoming_server_length
  check (char_length(incoming_server) <= 253) not valid;
alter table email_sources add constraint email_sources_outgoing_server_length
  check (char_length(outgoing_server) <= 253) not valid;
alter table email_sources add constraint email_sources_msal_client_id_length
  check (char_length(msal_client_id) <= 200) not valid;
alter table email_sources add constraint email_sources_msal_tenant_id_length
  check (char_length(msal_tenant_id) <= 200) not valid;

-- order_tracking_sources: .name, .email, .subject (subject and attachment patterns), .text
alter table order_tracking_sources add constraint order_tracking_sources_source_name_length
  check (char_length(source_name) <= 200) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_file_type_length
  check (char_length(file_type) <= 200) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_from_email_length
  check (char_length(from_email) <= 254) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_subject_value_length
  check (char_length(subject_value) <= 500) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_attachment_name_length
  check (char_length(attachment_name) <= 500) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_columns_to_ignore_length
  check (char_length(columns_to_ignore) <= 4000) not valid;
alter table order_tracking_sources add constraint order_tracking_sources_unique_column_length
  check (char_length(unique_column) <= 200) not valid;

-- order_tracking_column_normalizations: column names (.name)
alter table order_tracking_column_normalizations add constraint otcn_account_number_length
  check (char_length(account_number) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_brand_name_length
  check (char_length(brand_name) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_customer_name_length
  check (char_length(customer_name) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_customer_number_length
  check (char_length(customer_number) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_customer_po_number_length
  check (char_length(customer_po_number) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_document_number_length
  check (char_length(document_number) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_estimated_arrival_date_length
  check (char_length(estimated_arrival_date) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_item_number_length
  check (char_length(item_number) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_item_status_length
  check (char_length(item_status) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_line_status_length
  check (char_length(line_status) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_order_date_length
  check (char_length(order_date) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_po_date_length
  check (char_length(po_date) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_qty_length
  check (char_length(qty) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_qty_fulfilled_length
  check (char_length(qty_fulfilled) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_ship_to_name_length
  check (char_length(ship_to_name) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_shipped_date_length
  check (char_length(shipped_date) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_supplier_name_length
  check (char_length(supplier_name) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_supplier_order_status_length
  check (char_length(supplier_order_status) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_tracking_numbers_length
  check (char_length(tracking_numbers) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_wildcard1_length
  check (char_length(wildcard1) <= 200) not valid;
alter table order_tracking_column_normalizations add constraint otcn_wildcard2_length
  check (char_length(wildcard2) <= 200) not valid;

-- orders: notes are typed by people (.text); the other text columns come from files, whose
-- cells are capped at 32,767 characters by the file limits (shared/files/limits.ts).
alter table orders add constraint orders_notes_length
  check (char_length(notes) <= 4000) not valid;
