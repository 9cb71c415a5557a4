import { DropdownMenu, IconButton } from "@radix-ui/themes";
import type { MouseEvent } from "react";
import { useLocation } from "wouter";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import type { Order } from "./api.ts";
import { cellText, COLUMN_LABELS, type OrderTrackingColumn } from "./columns.ts";

/** The sort, in order: column → ascending. */
export type Sort = [OrderTrackingColumn, boolean][];

/**
 * The sort after a header click: a plain click sorts by that column alone (ascending, then
 * descending, then unsorted); a shift-click adds it to the sort or flips or removes it there.
 */
export function nextSort(sort: Sort, column: OrderTrackingColumn, add: boolean): Sort {
  const current = sort.find(([c]) => c === column);
  const step = (): [OrderTrackingColumn, boolean] | null =>
    !current ? [column, true] : current[1] ? [column, false] : null;
  if (!add) {
    const only = sort.length === 1 && current
      ? step()
      : [column, true] as [OrderTrackingColumn, boolean];
    return only ? [only] : [];
  }
  const next = step();
  if (!current) return [...sort, next!];
  return next
    ? sort.map((entry) => entry[0] === column ? next : entry)
    : sort.filter(([c]) => c !== column);
}

interface Props {
  orders: Order[];
  columns: OrderTrackingColumn[];
  sort: Sort;
  onSort(column: OrderTrackingColumn, add: boolean): void;
  onDelete(order: Order): void;
}

/** An order's row actions (View Order, Delete); `soft` is the cards' larger, visible button. */
export function OrderActions(
  { order, onDelete, variant = "ghost" }: {
    order: Order;
    onDelete(order: Order): void;
    variant?: "ghost" | "soft";
  },
) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <IconButton
          variant={variant}
          size={variant === "soft" ? "3" : undefined}
          aria-label={`Actions for order ${order.customerPoNumber ?? order.id}`}
        >
          ⋯
        </IconButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/order-tracking/order/${order.id}`)}>
          View Order
        </DropdownMenu.Item>
        <DropdownMenu.Item color="red" onSelect={() => onDelete(order)}>
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

/** The sortable order table inside its 70vh scroll area. */
export function OrdersTable({ orders, columns, sort, onSort, onDelete }: Props) {
  const direction = (column: OrderTrackingColumn) => sort.find(([c]) => c === column)?.[1];
  const tableColumns: DataColumn<Order>[] = columns.map((column) => {
    const ascending = direction(column);
    return {
      key: column,
      headerProps: {
        "aria-sort": ascending === undefined ? "none" : ascending ? "ascending" : "descending",
      },
      header: (
        <button
          type="button"
          className="sort-button"
          title="Click to sort; shift-click to add to the sort"
          onClick={(event: MouseEvent) => onSort(column, event.shiftKey)}
          style={{ all: "unset", cursor: "pointer", fontWeight: "bold", whiteSpace: "nowrap" }}
        >
          {COLUMN_LABELS[column]}
          {ascending === undefined ? "" : ascending ? " ▲" : " ▼"}
        </button>
      ),
      cell: (order: Order) => cellText(order, column),
    };
  });
  tableColumns.push({
    key: "actions",
    header: null,
    headerProps: { "aria-label": "Actions" },
    cell: (order) => <OrderActions order={order} onDelete={onDelete} />,
  });
  return (
    <div style={{ maxHeight: "70vh", overflow: "auto" }} data-testid="orders-scroll">
      <DataTable rows={orders} columns={tableColumns} rowKey={(order) => order.id} size="1" />
    </div>
  );
}
