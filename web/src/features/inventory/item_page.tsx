import {
  Badge,
  Box,
  Button,
  Callout,
  Card,
  Container,
  DataList,
  Flex,
  Grid,
  Heading,
  Link as RadixLink,
  Text,
} from "@radix-ui/themes";
import { Link, useParams } from "wouter";
import type { ItemChange, ItemDetail } from "../../../../shared/contract/inventory_items.ts";
import { messageOr } from "../../api/call.ts";
import { Chart, type ChartMarker } from "../../components/charts/chart.tsx";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";
import { loggedLoader } from "../../components/logged_loader.ts";
import { useResource } from "../../components/use_resource.ts";
import { fetchItem } from "./items_api.ts";
import { decodeParam, ItemReason, quantityText, StatusBadge } from "./item_parts.tsx";

const fmt = (n: number | null) =>
  n === null ? "—" : Number.isInteger(n) ? n.toLocaleString("en-US") : n.toFixed(2);

/** A run's time as the chart's x axis shows it (UTC month, day and minute: short on a phone). */
const pointLabel = (iso: string) => iso.slice(5, 16).replace("T", " ");

/**
 * The chart's points: one per stored quantity, plus the runs that changed the item without a
 * quantity (missing from the file), so that every status change has its marker.
 */
function chartOf(detail: ItemDetail) {
  const points = new Map<string, { time: string; quantity: number | null }>();
  for (const h of detail.history) {
    points.set(h.takenAt, { time: pointLabel(h.takenAt), quantity: h.quantity });
  }
  for (const c of detail.changes) {
    if (!points.has(c.receivedAt)) {
      points.set(c.receivedAt, { time: pointLabel(c.receivedAt), quantity: null });
    }
  }
  const data = [...points.entries()].sort(([a], [b]) => a < b ? -1 : 1).map(([, p]) => p);
  const markers: ChartMarker[] = detail.changes.map((c) => ({
    x: pointLabel(c.receivedAt),
    label: `Turned ${c.to}`,
    color: c.to === "Active" ? "green" : "red",
  }));
  return { data, markers };
}

const CHANGE_COLUMNS: DataColumn<ItemChange>[] = [
  { key: "when", header: "When", rowHeader: true, cell: (c) => longDateTime(c.receivedAt) },
  { key: "run", header: "Run", priority: "low", cell: (c) => `#${c.runId}` },
  {
    key: "change",
    header: "Change",
    cell: (c) => <Badge color={c.to === "Active" ? "green" : "red"}>Turned {c.to}</Badge>,
  },
  {
    key: "why",
    header: "Why",
    cell: (c) => (
      <Text size="2" style={{ overflowWrap: "anywhere" }}>
        {c.reason ?? "Not recorded (processed before the item view)"}
      </Text>
    ),
  },
];

function Summary({ detail }: { detail: ItemDetail }) {
  const { item, lastRun } = detail;
  return (
    <Card asChild>
      <section aria-label="Status">
        <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
          <DataList.Item>
            <DataList.Label>Status in the last delivered feed</DataList.Label>
            <DataList.Value>
              <StatusBadge status={item.deliveredStatus} />
            </DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Why</DataList.Label>
            <DataList.Value>
              <ItemReason item={item} />
            </DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Quantity</DataList.Label>
            <DataList.Value>{quantityText(item.quantity)}</DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Since</DataList.Label>
            <DataList.Value>
              {item.changedAt
                ? `${longDateTime(item.changedAt)} (run #${item.changedRunId})`
                : "No change recorded"}
            </DataList.Value>
          </DataList.Item>
          <DataList.Item>
            <DataList.Label>Last supplier file</DataList.Label>
            <DataList.Value>
              {longDateTime(lastRun.receivedAt)} (run #{lastRun.runId})
            </DataList.Value>
          </DataList.Item>
        </DataList.Root>
      </section>
    </Card>
  );
}

function Prediction({ detail }: { detail: ItemDetail }) {
  const p = detail.prediction;
  if (!p) return null;
  return (
    <Card asChild>
      <section aria-labelledby="item-prediction">
        <Heading as="h2" size="3" id="item-prediction" mb="2">Prediction at the Last Run</Heading>
        <Grid columns={{ initial: "2", sm: "5" }} gap="3" mb="2">
          {[
            ["Required stock", fmt(p.requiredStock)],
            ["Selling per day", fmt(p.dailyRate)],
            ["Expected sales", fmt(p.expectedSales)],
            ["Data points", fmt(p.dataPoints)],
            ["Update interval (days)", fmt(p.intervalDays)],
          ].map(([label, value]) => (
            <Flex key={label} direction="column">
              <Text size="1" color="gray">{label}</Text>
              <Text size="4" weight="bold">{value}</Text>
            </Flex>
          ))}
        </Grid>
        <Text as="p" size="2" style={{ overflowWrap: "anywhere" }}>{p.reason}.</Text>
      </section>
    </Card>
  );
}

function RawRow({ detail }: { detail: ItemDetail }) {
  const raw = detail.rawRow;
  return (
    <Card asChild>
      <section aria-labelledby="item-raw-row">
        <Heading as="h2" size="3" id="item-raw-row" mb="2">Row in the Last Supplier File</Heading>
        {raw
          ? (
            <>
              {raw.rowNumber !== null && (
                <Text as="p" size="2" color="gray" mb="2">Row {raw.rowNumber} of the file.</Text>
              )}
              <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }} size="2">
                {raw.cells.map((cell, index) => (
                  <DataList.Item key={index}>
                    <DataList.Label>{cell.header}</DataList.Label>
                    <DataList.Value style={{ overflowWrap: "anywhere" }}>
                      {cell.value === "" ? "(empty)" : cell.value}
                    </DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </>
          )
          : (
            <Text as="p" size="2">
              The item was not in the last supplier file.
            </Text>
          )}
      </section>
    </Card>
  );
}

/**
 * /inventory-sources/:sourceId/items/:item: why one item has its status, since when, and what
 * the supplier sent — its quantity over time (with the prediction's required stock and the
 * status changes marked), the runs that changed it, and its row of the last file.
 */
export default function ItemPage() {
  const params = useParams<{ sourceId: string; item: string }>();
  const sourceId = Number(params.sourceId) || 0;
  const itemNumber = decodeParam(params.item);
  const loaded = useResource(
    sourceId && itemNumber ? ["inventory-item", sourceId, itemNumber] : null,
    loggedLoader((signal) => fetchItem(sourceId, itemNumber, signal), "Error fetching the item"),
  );
  const detail = loaded.data;
  const chart = detail ? chartOf(detail) : null;
  const required = detail?.prediction?.requiredStock ?? null;
  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="2" wrap="wrap">
        <Heading as="h1" style={{ overflowWrap: "anywhere" }}>Item {itemNumber}</Heading>
        <Button asChild variant="soft">
          <Link href={`/inventory-sources/${sourceId}/items`}>Back to Items</Link>
        </Button>
      </Flex>
      {detail && (
        <Text as="p" color="gray" mb="3">
          Inventory source{" "}
          <RadixLink asChild>
            <Link href={`/inventory-sources/${sourceId}/items`}>{detail.sourceName}</Link>
          </RadixLink>
        </Text>
      )}
      {loaded.error !== undefined && (
        <ErrorAlert>{messageOr(loaded.error, "Could not load the item.")}</ErrorAlert>
      )}
      {loaded.loading && !detail && <Loading />}
      {detail && chart && (
        <Flex direction="column" gap="4">
          {detail.item.heldChange && (
            <Callout.Root color="amber" highContrast>
              <Callout.Text>
                The last run is held by the guard: it would turn this item{" "}
                {detail.item.runStatus}. The feed keeps its status until someone releases the run.
              </Callout.Text>
            </Callout.Root>
          )}
          <Summary detail={detail} />
          <Card asChild>
            <section aria-labelledby="item-chart">
              <Heading as="h2" size="3" id="item-chart" mb="2">Quantity over Time</Heading>
              <Chart
                title={`Quantity of item ${itemNumber} over time`}
                summary={`${detail.history.length} stored ${
                  detail.history.length === 1 ? "quantity" : "quantities"
                }, ${detail.changes.length} status ${
                  detail.changes.length === 1 ? "change" : "changes"
                }${required === null ? "" : `; required stock ${fmt(required)}`}.`}
                kind="line"
                xKey="time"
                xLabel="Run (UTC)"
                data={chart.data}
                series={[{ key: "quantity", label: "Quantity", color: "blue" }]}
                referenceLine={required === null
                  ? undefined
                  : { y: required, label: `Required stock ${fmt(required)}` }}
                markers={chart.markers}
              />
            </section>
          </Card>
          <Prediction detail={detail} />
          <Box asChild>
            <section aria-labelledby="item-changes">
              <Heading as="h2" size="3" id="item-changes" mb="2">Runs That Changed It</Heading>
              {detail.changes.length
                ? (
                  <DataTable
                    rows={detail.changes}
                    columns={CHANGE_COLUMNS}
                    rowKey={(c) => c.runId}
                    caption="Runs that changed the item"
                  />
                )
                : <Text as="p" size="2">No run has changed its status yet.</Text>}
            </section>
          </Box>
          <RawRow detail={detail} />
        </Flex>
      )}
    </Container>
  );
}
