import { Badge, Button, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { Link } from "wouter";
import {
  ACTIVITY_ACTIONS,
  ACTIVITY_PAGE_SIZES,
  type ActivityChange,
  type ActivityEntry,
  describeActivity,
  describeValue,
  ENTITY_TYPE_KEYS,
  ENTITY_TYPES,
} from "../../../../shared/contract/activity.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { ListViewToggle, useListView } from "../../components/list_view.tsx";
import { loggedLoader } from "../../components/logged_loader.ts";
import { Pager } from "../../components/pager.tsx";
import { TextField } from "../../components/text_field.tsx";
import { ALL, SelectFilter } from "../../components/select_filter.tsx";
import { useResource } from "../../components/use_resource.ts";
import { messageOr } from "../../api/call.ts";
import { type ActivityQuery, fetchActivity } from "./api.ts";

/** Below this width the entries are cards (docs/activity.md, "Web page"). */
const TABLE_MIN_WIDTH = 768;

interface Filters {
  user: string;
  action: string;
  entityType: string;
  entityId: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = {
  user: "",
  action: ALL,
  entityType: ALL,
  entityId: "",
  from: "",
  to: "",
};

function queryOf(filters: Filters, page: number, pageSize: number): ActivityQuery {
  const id = Number(filters.entityId.trim());
  return {
    user: filters.user.trim() || undefined,
    action: filters.action === ALL ? undefined : filters.action as ActivityQuery["action"],
    entityType: filters.entityType === ALL
      ? undefined
      : filters.entityType as ActivityQuery["entityType"],
    entityId: Number.isInteger(id) && id > 0 ? id : undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    page,
    pageSize,
  };
}

/** One change in words: `Subject: "old" → "new"`, `password changed`. */
function changeText(change: ActivityChange, created: boolean): string {
  if (change.hidden === "secret") {
    return `${change.label}: ${created ? "set" : "changed"} (not shown)`;
  }
  if (change.hidden === "file") return `${change.label}: file changed`;
  if (!("before" in change)) return `${change.label}: ${describeValue(change.after)}`;
  return `${change.label}: ${describeValue(change.before)} → ${describeValue(change.after)}`;
}

function Changes({ entry }: { entry: ActivityEntry }) {
  if (!entry.changes.length) return <Text size="2" color="gray">—</Text>;
  return (
    <Flex asChild direction="column" gap="1" m="0" p="0" style={{ listStyle: "none" }}>
      <ul>
        {entry.changes.map((change) => (
          <Text as="span" size="1" key={change.field} asChild>
            <li style={{ overflowWrap: "anywhere" }}>
              {changeText(change, entry.action === "created")}
            </li>
          </Text>
        ))}
      </ul>
    </Flex>
  );
}

function ActionBadge({ entry }: { entry: ActivityEntry }) {
  const color = entry.action === "sign-in failed"
    ? "red"
    : entry.action === "deleted"
    ? "orange"
    : "gray";
  return <Badge color={color}>{entry.action}</Badge>;
}

const COLUMNS: DataColumn<ActivityEntry>[] = [
  { key: "at", header: "When", cell: (e) => longDateTime(e.at) },
  { key: "what", header: "What", rowHeader: true, cell: describeActivity },
  { key: "action", header: "Action", priority: "medium", cell: (e) => <ActionBadge entry={e} /> },
  { key: "changes", header: "Changes", priority: "medium", cell: (e) => <Changes entry={e} /> },
  { key: "address", header: "Address", priority: "low", cell: (e) => e.address },
];

function EntryCards({ entries }: { entries: readonly ActivityEntry[] }) {
  if (!entries.length) return <Text as="p" size="2">No activity found.</Text>;
  return (
    <Grid columns="1" gap="3">
      {entries.map((entry) => (
        <Card key={entry.id} asChild>
          <article aria-label={describeActivity(entry)}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="start" gap="2">
                <Heading as="h2" size="3" style={{ overflowWrap: "anywhere" }}>
                  {describeActivity(entry)}
                </Heading>
                <ActionBadge entry={entry} />
              </Flex>
              <Text size="2" color="gray">
                {longDateTime(entry.at)}
                {entry.address ? ` · ${entry.address}` : ""}
              </Text>
              {entry.changes.length > 0 && <Changes entry={entry} />}
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

const ACTION_OPTIONS = ACTIVITY_ACTIONS.map((action) => ({ value: action, label: action }));
const TYPE_OPTIONS = ENTITY_TYPE_KEYS.map((type) => ({ value: type, label: ENTITY_TYPES[type] }));

/** /admin/activity: who changed what, and sign-ins, with filters; a table, cards on a phone. */
export default function ActivityPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(50);
  const { view, chosen, setChosen, canChoose } = useListView(TABLE_MIN_WIDTH);
  const query = queryOf(filters, page, pageSize);
  const list = useResource(
    ["activity", query],
    loggedLoader((signal) => fetchActivity(query, signal), "Error fetching activity"),
    { keepPrevious: true },
  );
  const set = (key: keyof Filters) => (value: string) => {
    setFilters((old) => ({ ...old, [key]: value }));
    setPage(1);
  };
  const entries = list.data?.entries;
  const total = list.data?.total ?? 0;
  const capped = list.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">Activity</Heading>
        <Flex gap="3" align="center">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          <Button asChild variant="soft">
            <Link href="/admin">Back to Admin</Link>
          </Button>
        </Flex>
      </Flex>
      <Card asChild mb="3">
        <section aria-label="Filters">
          <Grid columns={{ initial: "1", xs: "2", md: "3" }} gap="3">
            <TextField
              label="User"
              value={filters.user}
              onChange={(e) => set("user")(e.target.value)}
              placeholder="Username"
              autoComplete="off"
            />
            <SelectFilter
              label="Action"
              value={filters.action}
              onChange={set("action")}
              options={ACTION_OPTIONS}
            />
            <SelectFilter
              label="Record type"
              value={filters.entityType}
              onChange={set("entityType")}
              options={TYPE_OPTIONS}
            />
            <TextField
              label="Record ID"
              value={filters.entityId}
              onChange={(e) => set("entityId")(e.target.value)}
              inputMode="numeric"
              autoComplete="off"
            />
            <TextField
              label="From"
              type="date"
              value={filters.from}
              onChange={(e) => set("from")(e.target.value)}
            />
            <TextField
              label="To"
              type="date"
              value={filters.to}
              onChange={(e) => set("to")(e.target.value)}
            />
          </Grid>
          <Flex mt="3">
            <Button
              variant="soft"
              color="gray"
              onClick={() => {
                setFilters(NO_FILTERS);
                setPage(1);
              }}
            >
              Clear filters
            </Button>
          </Flex>
        </section>
      </Card>
      {list.error !== undefined && (
        <ErrorAlert>{messageOr(list.error, "Could not load the activity log.")}</ErrorAlert>
      )}
      <Text as="p" size="2" color="gray" mb="3" role="status">
        {entries === undefined
          ? "Loading …"
          : `${capped ? "More than " : ""}${total} ${total === 1 ? "entry" : "entries"}`}
      </Text>
      {entries !== undefined && (view === "table"
        ? (
          <DataTable
            rows={entries}
            columns={COLUMNS}
            rowKey={(entry) => entry.id}
            caption="Activity"
            empty="No activity found."
          />
        )
        : <EntryCards entries={entries} />)}
      {total > 0 && (
        <Pager
          pageIndex={page}
          pageCount={pageCount}
          pageSize={pageSize}
          pageSizes={ACTIVITY_PAGE_SIZES}
          capped={capped}
          onPage={setPage}
          onPageSize={(size) => {
            setPageSize(size);
            setPage(1);
          }}
        />
      )}
    </Container>
  );
}
