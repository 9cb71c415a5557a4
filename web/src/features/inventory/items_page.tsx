import {
  Box,
  Button,
  Callout,
  Card,
  Checkbox,
  Container,
  Flex,
  Grid,
  Heading,
  Link as RadixLink,
  Select,
  Text,
} from "@radix-ui/themes";
import { useId } from "react";
import { Link, useParams } from "wouter";
import {
  type InventoryItem,
  ITEM_PAGE_SIZES,
  ITEM_SORTS,
  type ItemSort,
} from "../../../../shared/contract/inventory_items.ts";
import { messageOr } from "../../api/call.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { loggedLoader } from "../../components/logged_loader.ts";
import { Pager } from "../../components/pager.tsx";
import { TextField } from "../../components/text_field.tsx";
import { useListState } from "../../components/use_list_state.ts";
import { useResource } from "../../components/use_resource.ts";
import { fetchItems, itemHref, type ItemListQuery } from "./items_api.ts";
import { ItemReason, quantityText, StatusBadge } from "./item_parts.tsx";

/** Below this width the items are cards (issue 23: phone layout). */
const TABLE_MIN_WIDTH = 768;

const SORT_LABELS: Record<ItemSort, string> = {
  itemNumber: "Item number",
  quantity: "Quantity",
  status: "Status",
  changedAt: "Last changed",
  position: "Catalogue order",
};

const FILTERS = [
  { key: "inactive", label: "Inactive only" },
  { key: "changed", label: "Changed in the last run" },
  { key: "missing", label: "Missing from the file" },
] as const;

function columns(sourceId: number): DataColumn<InventoryItem>[] {
  return [
    {
      key: "item",
      header: "Item Number",
      rowHeader: true,
      cell: (i) => (
        <RadixLink asChild>
          <Link href={itemHref(sourceId, i.itemNumber)}>{i.itemNumber}</Link>
        </RadixLink>
      ),
    },
    { key: "qty", header: "Quantity", cell: (i) => quantityText(i.quantity) },
    {
      key: "status",
      header: "Status",
      cell: (i) => <StatusBadge status={i.deliveredStatus ?? i.runStatus} />,
    },
    { key: "why", header: "Why", priority: "medium", cell: (i) => <ItemReason item={i} /> },
    {
      key: "changed",
      header: "Last Changed",
      priority: "low",
      cell: (i) => (i.changedAt ? longDateTime(i.changedAt) : "Never"),
    },
  ];
}

function ItemCards({ sourceId, items }: { sourceId: number; items: readonly InventoryItem[] }) {
  if (!items.length) return <Text as="p" size="2">No items found.</Text>;
  return (
    <Grid columns="1" gap="3">
      {items.map((item) => (
        <Card key={item.itemNumber} asChild>
          <article aria-label={`Item ${item.itemNumber}`}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="start" gap="2">
                <Heading as="h2" size="3" style={{ overflowWrap: "anywhere" }}>
                  <RadixLink asChild>
                    <Link href={itemHref(sourceId, item.itemNumber)}>{item.itemNumber}</Link>
                  </RadixLink>
                </Heading>
                <StatusBadge status={item.deliveredStatus ?? item.runStatus} />
              </Flex>
              <Text size="2">Quantity: {quantityText(item.quantity)}</Text>
              <ItemReason item={item} />
              <Text size="1" color="gray">
                Last changed: {item.changedAt ? longDateTime(item.changedAt) : "Never"}
              </Text>
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

function LabelledSelect(
  { label, value, onChange, options }: {
    label: string;
    value: string;
    onChange(value: string): void;
    options: readonly { value: string; label: string }[];
  },
) {
  const id = useId();
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">{label}</Text>
      <Select.Root value={value} onValueChange={onChange}>
        <Select.Trigger id={id} />
        <Select.Content>
          {options.map((o) => <Select.Item key={o.value} value={o.value}>{o.label}</Select.Item>)}
        </Select.Content>
      </Select.Root>
    </Flex>
  );
}

function FilterCheckbox(
  { label, checked, onChange }: { label: string; checked: boolean; onChange(on: boolean): void },
) {
  const id = useId();
  return (
    <Text as="label" size="2" htmlFor={id}>
      <Flex gap="2" align="center">
        <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
        {label}
      </Flex>
    </Text>
  );
}

/**
 * /inventory-sources/:sourceId/items: the source's catalogue items with their quantity, status
 * in the last delivered feed, the rule that decided it and when it last changed; search,
 * filters, sort and pages kept with the history entry; a table, cards on a phone.
 */
export default function ItemsPage() {
  const params = useParams<{ sourceId: string }>();
  const sourceId = Number(params.sourceId) || 0;
  const [state, update] = useListState();
  const { view, chosen, setChosen, canChoose } = useListView(TABLE_MIN_WIDTH);
  const sort = (ITEM_SORTS as readonly string[]).includes(state.get("sort") ?? "")
    ? state.get("sort") as ItemSort
    : "itemNumber";
  const dir = state.get("dir") === "desc" ? "desc" : "asc";
  const page = Math.max(1, Number(state.get("page")) || 1);
  const pageSize = ITEM_PAGE_SIZES.find((s) => s === Number(state.get("pageSize"))) ?? 50;
  const query: ItemListQuery = {
    q: state.get("q") ?? undefined,
    inactive: state.get("inactive") === "true" ? "true" : undefined,
    changed: state.get("changed") === "true" ? "true" : undefined,
    missing: state.get("missing") === "true" ? "true" : undefined,
    sort,
    dir,
    page,
    pageSize,
  };
  const list = useResource(
    sourceId ? ["inventory-items", sourceId, query] : null,
    loggedLoader((signal) => fetchItems(sourceId, query, signal), "Error fetching items"),
    { keepPrevious: true },
  );
  const data = list.data;
  const total = data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const last = data?.lastRun ?? null;

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="2" wrap="wrap">
        <Heading as="h1" style={{ overflowWrap: "anywhere" }}>
          Items{data ? ` of ${data.sourceName}` : ""}
        </Heading>
        <Flex gap="3" align="center" wrap="wrap">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild variant="soft">
            <Link href="/inventory-sources">Back to Sources</Link>
          </Button>
        </Flex>
      </Flex>
      <Text as="p" color="gray" mb="3">
        {last
          ? `Last supplier file: ${longDateTime(last.receivedAt)} (run ${last.runId}).`
          : data
          ? "No supplier file has been processed yet: the items appear after the first run."
          : ""}
      </Text>
      {last?.held && (
        <Callout.Root color="amber" highContrast mb="3">
          <Callout.Text>
            The last run is held by the guard: the feed still has the statuses of the run before it.
            Items it would change say so.
          </Callout.Text>
        </Callout.Root>
      )}
      <Card asChild mb="3">
        <section aria-label="Filters">
          <Grid columns={{ initial: "1", sm: "3" }} gap="3">
            <TextField
              label="Search item number"
              value={state.get("q") ?? ""}
              onChange={(e) => update({ q: e.target.value, page: null })}
              autoComplete="off"
            />
            <LabelledSelect
              label="Sort by"
              value={sort}
              onChange={(v) => update({ sort: v, page: null })}
              options={ITEM_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s] }))}
            />
            <LabelledSelect
              label="Order"
              value={dir}
              onChange={(v) => update({ dir: v, page: null })}
              options={[
                { value: "asc", label: "Ascending" },
                { value: "desc", label: "Descending" },
              ]}
            />
          </Grid>
          <Flex gap="4" mt="3" wrap="wrap">
            {FILTERS.map((f) => (
              <FilterCheckbox
                key={f.key}
                label={f.label}
                checked={state.get(f.key) === "true"}
                onChange={(on) => update({ [f.key]: on ? "true" : null, page: null })}
              />
            ))}
          </Flex>
        </section>
      </Card>
      {list.error !== undefined && (
        <ErrorAlert>{messageOr(list.error, "Could not load the items.")}</ErrorAlert>
      )}
      <Text as="p" size="2" color="gray" mb="3" role="status">
        {data === undefined ? "Loading …" : `${total} ${total === 1 ? "item" : "items"}`}
      </Text>
      {data !== undefined && (view === "table"
        ? (
          <Box>
            <DataTable
              rows={data.items}
              columns={columns(sourceId)}
              rowKey={(i) => i.itemNumber}
              caption="Items"
              empty="No items found."
            />
          </Box>
        )
        : <ItemCards sourceId={sourceId} items={data.items} />)}
      {total > 0 && (
        <Pager
          pageIndex={page}
          pageCount={pageCount}
          pageSize={pageSize}
          pageSizes={ITEM_PAGE_SIZES}
          onPage={(p) => update({ page: String(p) })}
          onPageSize={(size) => update({ pageSize: String(size), page: null })}
        />
      )}
    </Container>
  );
}
