import { Container, Flex, Heading, Text } from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useEffect, useMemo, useRef, useState } from "react";
import {
  lastWindowPage,
  PAGE_SIZES,
  type SearchParamKey,
} from "../../../../shared/contract/order_tracking.ts";
import { ColumnChooser } from "../../components/column_chooser.tsx";
import { DeleteDialog } from "../../components/delete_dialog.tsx";
import { deleteFailureText } from "../../components/list_page.tsx";
import { Pager } from "../../components/pager.tsx";
import { TABLET_MIN_WIDTH, useMinWidth } from "../../components/use_min_width.ts";
import { pageCount as pagesOf, totalText } from "../../components/pager_text.ts";
import { useListState } from "../../components/use_list_state.ts";
import { useResource } from "../../components/use_resource.ts";
import { currentUserAtom } from "../../state/session.ts";
import {
  deleteOrder,
  fetchOrders,
  fetchViewSettings,
  type Order,
  type OrderListRequest,
} from "./api.ts";
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
import { orderListPatch, type OrderListQuery, readOrderListQuery } from "./list_query.ts";
import { CardSort, OrderCards } from "./order_cards.tsx";
import { nextSort, OrdersTable } from "./orders_table.tsx";

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

/**
 * /order-tracking: search, choose columns, sort, page through, view or delete orders. The
 * search, AND/OR, sort, page and page size live in the history entry (list_query.ts), so Back
 * and refresh keep them.
 */
export default function OrderListPage() {
  const user = useAtomValue(currentUserAtom);
  const [params, updateParams] = useListState();
  const query = useMemo(() => readOrderListQuery(params), [params]);
  const change = (next: Partial<OrderListQuery>) => updateParams(orderListPatch(query, next));

  // The fields keep what is typed; the URL gets the terms once typing pauses.
  const [terms, setTerms] = useState<SearchTerms>(() => ({ ...emptyTerms(), ...query.terms }));
  const [mobileFields, setMobileFields] = useState<SearchParamKey[]>(MOBILE_DEFAULT_FIELDS);
  const shownFields = useShownSearchFields(mobileFields);
  const [deleting, setDeleting] = useState<Order | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const askDelete = (order: Order) => {
    setDeleteFailure(null);
    setDeleting(order);
  };
  // Cards below the tablet width (issue 24); the table from there up.
  const wide = useMinWidth(TABLET_MIN_WIDTH);

  const settings = useResource(
    user?.username ? ["view-settings", user.username] : null,
    (signal) => fetchViewSettings(user!.username, signal),
  );
  const [chosen, setChosen] = useState<Set<OrderTrackingColumn> | null>(null);
  const visible = chosen ?? initialColumns(settings.data ?? null);

  // Only the fields on screen search; each term is sent trimmed.
  const searched = useMemo(() => {
    const out: Partial<Record<SearchParamKey, string>> = {};
    for (const key of shownFields) if (terms[key].trim()) out[key] = terms[key].trim();
    return JSON.stringify(out);
  }, [terms, shownFields]);
  const settledSearch = useSettled(searched, TYPING_PAUSE_MS);
  const lastSettled = useRef(settledSearch);
  useEffect(() => {
    if (settledSearch === lastSettled.current) return;
    lastSettled.current = settledSearch;
    change({ terms: JSON.parse(settledSearch) });
  }, [settledSearch]);

  const request: OrderListRequest = {
    PageSize: query.pageSize,
    PageIndex: query.pageIndex,
    AndOrParam: query.matchAll,
    SortParams: Object.fromEntries(query.sort),
    ...query.terms,
  };
  const result = useResource(request, async (signal) => {
    try {
      return await fetchOrders(request, signal);
    } catch (error) {
      if (!signal.aborted) console.error("Error fetching orders", error);
      throw error;
    }
  }, { keepPrevious: true });
  const orders = result.data?.orders ?? [];
  const total = result.data?.totalRecordCount ?? 0;
  // More matches than the server counted (docs/order_tracking.md, "Order list at scale").
  const capped = result.data?.countCapped === true;

  const pageCount = pagesOf(total, query.pageSize);
  const columns = ORDER_TRACKING_COLUMNS.filter((column) => visible.has(column));

  const toggleColumn = (column: OrderTrackingColumn) => {
    const next = new Set(visible);
    if (next.has(column)) next.delete(column);
    else next.add(column);
    setChosen(next);
  };

  const confirmDelete = async () => {
    if (!deleting) return false;
    try {
      await deleteOrder(deleting.id);
    } catch (error) {
      console.error("Error deleting order", error);
      setDeleteFailure(deleteFailureText(error));
      return false;
    }
    result.setData((current) =>
      current && {
        ...current,
        orders: current.orders.filter((order) => order.id !== deleting.id),
        totalRecordCount: Math.max(0, current.totalRecordCount - 1),
      }
    );
    return true;
  };

  return (
    <Container size="4" p="4">
      <Heading as="h1" mb="4">Order Tracking</Heading>
      <Flex direction="column" gap="3">
        <FilterBar
          shown={shownFields}
          terms={terms}
          onTermChange={(key, value) => setTerms((current) => ({ ...current, [key]: value }))}
          matchAll={query.matchAll}
          onMatchAllChange={(matchAll) => change({ matchAll })}
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
          <Text size="2" color="gray" aria-busy={result.loading}>
            {totalText(total, capped)}
            {result.loading ? " · Searching…" : ""}
          </Text>
          <ColumnChooser
            columns={ORDER_TRACKING_COLUMNS}
            labels={COLUMN_LABELS}
            visible={visible}
            onToggle={toggleColumn}
          />
        </Flex>
        {wide
          ? (
            <OrdersTable
              orders={orders}
              columns={columns}
              sort={query.sort}
              onSort={(column, add) => change({ sort: nextSort(query.sort, column, add) })}
              onDelete={askDelete}
            />
          )
          : (
            <>
              <CardSort columns={columns} sort={query.sort} onSort={(sort) => change({ sort })} />
              <OrderCards orders={orders} columns={columns} onDelete={askDelete} />
            </>
          )}
      </Flex>
      <Pager
        pageIndex={query.pageIndex}
        pageCount={pageCount}
        capped={capped}
        lastPage={lastWindowPage(query.pageSize)}
        pageSize={query.pageSize}
        pageSizes={PAGE_SIZES}
        onPage={(pageIndex) => change({ pageIndex })}
        onPageSize={(pageSize) => change({ pageSize })}
      />
      <DeleteDialog
        name={deleting ? deleting.customerPoNumber ?? `Order ${deleting.id}` : null}
        onCancel={() => setDeleting(null)}
        onConfirm={confirmDelete}
        failure={deleteFailure}
      />
    </Container>
  );
}
