import { Button, Container, DropdownMenu, Flex, Heading, Select, Text } from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useEffect, useId, useMemo, useState } from "react";
import { PAGE_SIZES, type SearchParamKey } from "../../../../shared/contract/order_tracking.ts";
import {
  deleteOrder,
  fetchOrders,
  fetchViewSettings,
  type Order,
  type OrderListRequest,
} from "./api.ts";
import { isSuccess } from "../../api/http.ts";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { currentUserAtom } from "../../state/session.ts";
import {
  COLUMN_LABELS,
  initialColumns,
  ORDER_TRACKING_COLUMNS,
  type OrderTrackingColumn,
} from "./columns.ts";
import {
  emptyTerms,
  FilterBar,
  MOBILE_DEFAULT_FIELDS,
  type SearchTerms,
  useShownSearchFields,
} from "./filter_bar.tsx";
import { nextSort, OrdersTable, type Sort } from "./orders_table.tsx";

// Typing waits this long before searching, so one word is one request.
const TYPING_PAUSE_MS = 300;

/** Terms to search after the user pauses typing. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function ColumnChooser(
  { visible, onToggle }: {
    visible: Set<OrderTrackingColumn>;
    onToggle(column: OrderTrackingColumn): void;
  },
) {
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button variant="soft" type="button">
          Columns
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        {ORDER_TRACKING_COLUMNS.map((column) => (
          <DropdownMenu.CheckboxItem
            key={column}
            checked={visible.has(column)}
            // Keep the menu open while several columns are switched.
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={() => onToggle(column)}
          >
            {COLUMN_LABELS[column]}
          </DropdownMenu.CheckboxItem>
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

function Pager(
  { pageIndex, pageCount, pageSize, onPage, onPageSize }: {
    pageIndex: number;
    pageCount: number;
    pageSize: number;
    onPage(page: number): void;
    onPageSize(size: number): void;
  },
) {
  const sizeId = useId();
  return (
    <Flex gap="3" align="center" justify="between" wrap="wrap" mt="3">
      <Flex gap="2" align="center">
        <Text as="label" htmlFor={sizeId} size="2">Rows per page</Text>
        <Select.Root value={String(pageSize)} onValueChange={(value) => onPageSize(Number(value))}>
          <Select.Trigger id={sizeId} />
          <Select.Content>
            {PAGE_SIZES.map((size) => (
              <Select.Item key={size} value={String(size)}>{size}</Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      <Flex gap="2" align="center">
        <Button variant="soft" disabled={pageIndex <= 1} onClick={() => onPage(1)}>First</Button>
        <Button variant="soft" disabled={pageIndex <= 1} onClick={() => onPage(pageIndex - 1)}>
          Previous
        </Button>
        <Text size="2" aria-live="polite">Page {pageIndex} of {pageCount}</Text>
        <Button
          variant="soft"
          disabled={pageIndex >= pageCount}
          onClick={() => onPage(pageIndex + 1)}
        >
          Next
        </Button>
        <Button
          variant="soft"
          disabled={pageIndex >= pageCount}
          onClick={() => onPage(pageCount)}
        >
          Last
        </Button>
      </Flex>
    </Flex>
  );
}

/** /order-tracking: search, choose columns, sort, page through, view or delete orders. */
export default function OrderListPage() {
  const user = useAtomValue(currentUserAtom);
  const [terms, setTerms] = useState<SearchTerms>(emptyTerms);
  const [matchAll, setMatchAll] = useState(false);
  const [mobileFields, setMobileFields] = useState<SearchParamKey[]>(MOBILE_DEFAULT_FIELDS);
  const shownFields = useShownSearchFields(mobileFields);
  const [visible, setVisible] = useState<Set<OrderTrackingColumn>>(() => initialColumns(null));
  const [sort, setSort] = useState<Sort>([]);
  const [pageSize, setPageSize] = useState(10);
  const [pageIndex, setPageIndex] = useState(1);
  const [orders, setOrders] = useState<Order[]>([]);
  const [total, setTotal] = useState(0);
  const [deleting, setDeleting] = useState<Order | null>(null);

  useEffect(() => {
    if (!user?.username) return;
    fetchViewSettings(user.username).then((settings) => setVisible(initialColumns(settings)));
  }, [user?.username]);

  // Only the fields on screen search; each term is sent trimmed.
  const searched = useMemo(() => {
    const out: Partial<Record<SearchParamKey, string>> = {};
    for (const key of shownFields) if (terms[key].trim()) out[key] = terms[key].trim();
    return JSON.stringify(out);
  }, [terms, shownFields]);
  const settledSearch = useSettled(searched, TYPING_PAUSE_MS);

  useEffect(() => {
    let cancelled = false;
    const request: OrderListRequest = {
      PageSize: pageSize,
      PageIndex: pageIndex,
      AndOrParam: matchAll,
      SortParams: Object.fromEntries(sort),
      ...JSON.parse(settledSearch),
    };
    fetchOrders(request).then((result) => {
      if (cancelled) return;
      setOrders(result.orders);
      setTotal(result.totalRecordCount);
    }).catch((error) => console.error("Error fetching orders", error));
    return () => {
      cancelled = true;
    };
  }, [settledSearch, matchAll, sort, pageSize, pageIndex]);

  // A new search starts on page 1.
  useEffect(() => setPageIndex(1), [settledSearch, matchAll, pageSize]);

  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const columns = ORDER_TRACKING_COLUMNS.filter((column) => visible.has(column));

  const toggleColumn = (column: OrderTrackingColumn) =>
    setVisible((current) => {
      const next = new Set(current);
      if (next.has(column)) next.delete(column);
      else next.add(column);
      return next;
    });

  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      const response = await deleteOrder(deleting.id);
      if (!isSuccess(response)) {
        console.error("Error deleting order", response.status);
        return false;
      }
      setOrders((current) => current.filter((order) => order.id !== deleting.id));
      setTotal((current) => Math.max(0, current - 1));
      return true;
    } catch (error) {
      console.error("Error deleting order", error);
      return false;
    }
  };

  return (
    <Container size="4" p="4">
      <Heading as="h1" mb="4">Order Tracking</Heading>
      <Flex direction="column" gap="3">
        <FilterBar
          shown={shownFields}
          terms={terms}
          onTermChange={(key, value) => setTerms((current) => ({ ...current, [key]: value }))}
          matchAll={matchAll}
          onMatchAllChange={setMatchAll}
          mobileFields={mobileFields}
          onMobileFieldsChange={(fields) => {
            // A field taken off the screen stops searching.
            setTerms((current) => {
              const next = { ...current };
              for (const key of mobileFields) if (!fields.includes(key)) next[key] = "";
              return next;
            });
            setMobileFields(fields);
          }}
        />
        <Flex justify="between" align="center">
          <Text size="2" color="gray">{total} orders</Text>
          <ColumnChooser visible={visible} onToggle={toggleColumn} />
        </Flex>
        <OrdersTable
          orders={orders}
          columns={columns}
          sort={sort}
          onSort={(column, add) => setSort((current) => nextSort(current, column, add))}
          onDelete={setDeleting}
        />
      </Flex>
      <Pager
        pageIndex={pageIndex}
        pageCount={pageCount}
        pageSize={pageSize}
        onPage={setPageIndex}
        onPageSize={setPageSize}
      />
      <DeleteDialog
        name={deleting ? deleting.customerPoNumber ?? `Order ${deleting.id}` : null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </Container>
  );
}
