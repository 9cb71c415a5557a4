-- Order submission: the sources describing incoming order files, the vendors their rows are
-- split into (with aliases, template and field mapping). See docs/order_submission.md. The
-- processing (outbox, submissions) adds its own tables in a later migration.
-- Length checks use the contract's maximums (shared/contract/fields.ts MAX_LENGTH): name 200,
-- email 320, text 4000, longText 1000000.

create table order_submission_sources (
  id serial primary key,
  source_name text not null check (char_length(source_name) <= 200),
  -- e-mail sources are soft-deleted (deleted_at), so the row stays for this reference
  email_source_id integer not null references email_sources (id),
  file_type text not null default '' check (char_length(file_type) <= 200),
  from_email text not null check (char_length(from_email) <= 320),
  subject_value text not null check (char_length(subject_value) <= 200),
  contains_not_exact boolean not null default false,
  expected_attachment_count integer not null default 1 check (expected_attachment_count >= 1),
  expected_number_of_batch_emails integer not null default 1
    check (expected_number_of_batch_emails >= 1),
  attachment_name text not null default '' check (char_length(attachment_name) <= 200),
  no_attachments_needs_link_click boolean not null default false,
  orders_are_all_quantity_one boolean not null default false,
  link_click_preceeded_by_text text not null default ''
    check (char_length(link_click_preceeded_by_text) <= 4000),
  link_click_always_contains_text text not null default ''
    check (char_length(link_click_always_contains_text) <= 4000),
  download_spreadsheet boolean not null default false,
  download_pdf boolean not null default false,
  spreadsheet_download_button_text text not null default ''
    check (char_length(spreadsheet_download_button_text) <= 200),
  pdf_download_button_text text not null default ''
    check (char_length(pdf_download_button_text) <= 200),
  spreadsheet_type text not null default '' check (char_length(spreadsheet_type) <= 200),
  spreadsheet_download_name text not null default ''
    check (char_length(spreadsheet_download_name) <= 200),
  pdf_download_name text not null default '' check (char_length(pdf_download_name) <= 200),
  active_status boolean not null default true,
  -- Soft delete: vendors, runs and submissions keep pointing at the row.
  deleted_status boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index order_submission_sources_email_source_idx
  on order_submission_sources (email_source_id) where not deleted_status;

create table vendor_sources (
  id serial primary key,
  order_submission_source_id integer not null references order_submission_sources (id),
  vendor_name_from_file text not null check (char_length(vendor_name_from_file) <= 200),
  vendor_provided_account_number text not null default ''
    check (char_length(vendor_provided_account_number) <= 200),
  send_from_email_source_id integer not null references email_sources (id),
  submit_emails text not null check (char_length(submit_emails) <= 4000),
  submit_cc_emails text not null default '' check (char_length(submit_cc_emails) <= 4000),
  submit_bcc_emails text not null default '' check (char_length(submit_bcc_emails) <= 4000),
  submit_email_subject_line text not null
    check (char_length(submit_email_subject_line) <= 4000),
  submit_email_body_text text not null default ''
    check (char_length(submit_email_body_text) <= 1000000),
  vendor_wants_trimmed_item_description boolean not null default false,
  vendor_regex_for_item_description text not null default ''
    check (char_length(vendor_regex_for_item_description) <= 4000),
  vendor_wants_non_daily_submission boolean not null default false,
  vendor_wants_all_aligned_left boolean not null default false,
  vendor_custom_submit_every_x_day integer
    check (vendor_custom_submit_every_x_day between 1 and 365),
  vendor_wants_pdf boolean not null default false,
  vendor_wants_spreadsheet boolean not null default true,
  vendor_wants_forwarded_email boolean not null default false,
  vendor_wants_all_data boolean not null default false,
  -- 1-based, as a spreadsheet program numbers rows
  submit_file_header_row_index integer not null default 1
    check (submit_file_header_row_index between 1 and 1048576),
  active_status boolean not null default true,
  deleted_status boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A file's vendor cell is matched case-insensitively, so two live vendors may not share a name
-- in any case. The name is part of the contract: vendorSaveErrorText recognises it in the 409.
create unique index vendor_sources_vendor_name_unique
  on vendor_sources (lower(vendor_name_from_file)) where not deleted_status;
create index vendor_sources_source_idx
  on vendor_sources (order_submission_source_id) where not deleted_status;

create table vendor_aliases (
  id serial primary key,
  vendor_source_id integer not null references vendor_sources (id),
  vendor_alias_name_from_file text not null
    check (char_length(vendor_alias_name_from_file) <= 200),
  vendor_provided_account_number text not null default ''
    check (char_length(vendor_provided_account_number) <= 200),
  active_status boolean not null default true,
  deleted_status boolean not null default false,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index vendor_aliases_vendor_idx on vendor_aliases (vendor_source_id) where not deleted_status;

-- The vendor's spreadsheet template (at most one; replaced when a new one is uploaded).
create table vendor_templates (
  vendor_source_id integer primary key references vendor_sources (id) on delete cascade,
  file_name text not null check (char_length(file_name) <= 200),
  data bytea not null check (octet_length(data) <= 52428800),
  sha256 text not null,
  updated_at timestamptz not null default now()
);

-- One row per vendor: the template column(s) receiving each order field, and the static data.
create table vendor_field_mappings (
  vendor_source_id integer primary key references vendor_sources (id) on delete cascade,
  map_batch text not null default '' check (char_length(map_batch) <= 4000),
  map_rep text not null default '' check (char_length(map_rep) <= 4000),
  map_vendor_address text not null default '' check (char_length(map_vendor_address) <= 4000),
  map_vendor_phone text not null default '' check (char_length(map_vendor_phone) <= 4000),
  map_vendor_fax text not null default '' check (char_length(map_vendor_fax) <= 4000),
  map_po text not null default '' check (char_length(map_po) <= 4000),
  map_order_date text not null default '' check (char_length(map_order_date) <= 4000),
  map_req_ship_date text not null default '' check (char_length(map_req_ship_date) <= 4000),
  map_ship_via text not null default '' check (char_length(map_ship_via) <= 4000),
  map_ship_to text not null default '' check (char_length(map_ship_to) <= 4000),
  map_address1 text not null default '' check (char_length(map_address1) <= 4000),
  map_care_of text not null default '' check (char_length(map_care_of) <= 4000),
  map_attention text not null default '' check (char_length(map_attention) <= 4000),
  map_address2 text not null default '' check (char_length(map_address2) <= 4000),
  map_city text not null default '' check (char_length(map_city) <= 4000),
  map_state text not null default '' check (char_length(map_state) <= 4000),
  map_zip_code text not null default '' check (char_length(map_zip_code) <= 4000),
  map_phone text not null default '' check (char_length(map_phone) <= 4000),
  map_email text not null default '' check (char_length(map_email) <= 4000),
  map_item_description text not null default ''
    check (char_length(map_item_description) <= 4000),
  map_unit_price text not null default '' check (char_length(map_unit_price) <= 4000),
  map_qty text not null default '' check (char_length(map_qty) <= 4000),
  map_provided_account_number text not null default ''
    check (char_length(map_provided_account_number) <= 4000),
  map_total text not null default '' check (char_length(map_total) <= 4000),
  static_file_data1 text not null default '' check (char_length(static_file_data1) <= 4000),
  map_static_file_data1 text not null default ''
    check (char_length(map_static_file_data1) <= 4000),
  static_file_data2 text not null default '' check (char_length(static_file_data2) <= 4000),
  map_static_file_data2 text not null default ''
    check (char_length(map_static_file_data2) <= 4000),
  static_file_data3 text not null default '' check (char_length(static_file_data3) <= 4000),
  map_static_file_data3 text not null default ''
    check (char_length(map_static_file_data3) <= 4000),
  static_file_data4 text not null default '' check (char_length(static_file_data4) <= 4000),
  map_static_file_data4 text not null default ''
    check (char_length(map_static_file_data4) <= 4000),
  static_file_data5 text not null default '' check (char_length(static_file_data5) <= 4000),
  map_static_file_data5 text not null default ''
    check (char_length(map_static_file_data5) <= 4000)
);
