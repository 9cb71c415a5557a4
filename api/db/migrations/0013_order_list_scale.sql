-- Order list at scale (docs/order_tracking.md, "Order list at scale"): one btree per sortable
-- column on (sort expression, id) over the live orders, so that sort + limit reads a page in
-- index order (forwards for ascending, backwards for descending) instead of sorting every
-- match. Text columns are indexed as lower(col), the expression the list sorts by. The id
-- column's order is the primary key's.
set local maintenance_work_mem = '256MB';
create index orders_sort_account_number on orders (lower(account_number), id) where not deleted_status;
create index orders_sort_brand_name on orders (lower(brand_name), id) where not deleted_status;
create index orders_sort_customer_name on orders (lower(customer_name), id) where not deleted_status;
create index orders_sort_customer_number on orders (lower(customer_number), id) where not deleted_status;
create index orders_sort_customer_po_number on orders (lower(customer_po_number), id) where not deleted_status;
create index orders_sort_document_number on orders (lower(document_number), id) where not deleted_status;
create index orders_sort_estimated_arrival_date on orders (estimated_arrival_date, id) where not deleted_status;
create index orders_sort_item_number on orders (lower(item_number), id) where not deleted_status;
create index orders_sort_item_status on orders (lower(item_status), id) where not deleted_status;
create index orders_sort_line_status on orders (lower(line_status), id) where not deleted_status;
create index orders_sort_order_date on orders (order_date, id) where not deleted_status;
create index orders_sort_po_date on orders (po_date, id) where not deleted_status;
create index orders_sort_qty on orders (qty, id) where not deleted_status;
create index orders_sort_qty_fulfilled on orders (qty_fulfilled, id) where not deleted_status;
create index orders_sort_ship_to_name on orders (lower(ship_to_name), id) where not deleted_status;
create index orders_sort_shipped_date on orders (shipped_date, id) where not deleted_status;
create index orders_sort_supplier_name on orders (lower(supplier_name), id) where not deleted_status;
create index orders_sort_supplier_order_status on orders (lower(supplier_order_status), id) where not deleted_status;
create index orders_sort_tracking_search on orders (lower(tracking_search), id) where not deleted_status;
create index orders_sort_wildcard1 on orders (lower(wildcard1), id) where not deleted_status;
create index orders_sort_wildcard2 on orders (lower(wildcard2), id) where not deleted_status;
create index orders_sort_notes on orders (lower(notes), id) where not deleted_status;
create index orders_sort_last_updated on orders (last_updated, id) where not deleted_status;
analyze orders;
