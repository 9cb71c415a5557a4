import { Button, Card, Container, DataList, Flex, Heading, Text } from "@radix-ui/themes";
import { useState } from "react";
import { useResource } from "../../components/use_resource.ts";
import { useParams } from "wouter";
import { fetchOrder, type OrderDetail } from "./api.ts";
import { cellText, COLUMN_LABELS, ORDER_TRACKING_COLUMNS } from "./columns.ts";
import { NotesEditor } from "./notes_editor.tsx";

/** The order's fields on this page: every column but notes (which has its own editor). */
const SHOWN = ORDER_TRACKING_COLUMNS.filter((column) => column !== "notes");

/** A timestamp in US form with the time, in the browser's zone. */
function usDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString("en-US");
}

/** /order-tracking/order/{orderId}: every visible field, lastUpdated and the notes editor. */
export default function OrderDetailPage() {
  const { orderId } = useParams<{ orderId: string }>();
  const loaded = useResource(["order", orderId], async (signal) => {
    try {
      return await fetchOrder(orderId, signal);
    } catch (error) {
      if (!signal.aborted) console.error("Error fetching order", error);
      throw error;
    }
  });
  const order: OrderDetail | null = loaded.data ?? null;
  // Edit Order opens what a person may edit: the notes. The other fields come from the
  // supplier's files, and the next file would overwrite a hand edit (docs/web_decisions.md).
  const [editRequest, setEditRequest] = useState(0);
  const [explained, setExplained] = useState(false);

  return (
    <Container size="3" p="4">
      <Flex justify="between" align="center" mb="4" wrap="wrap" gap="3">
        <Heading as="h1">Order Details</Heading>
        <Flex gap="3">
          <Button variant="soft" onClick={() => history.back()}>Back</Button>
          <Button
            variant="outline"
            disabled={!order}
            onClick={() => {
              setExplained(true);
              setEditRequest((n) => n + 1);
            }}
          >
            Edit Order
          </Button>
        </Flex>
      </Flex>
      {!order ? <Text as="p">Loading...</Text> : (
        <Flex direction="column" gap="4">
          <Card>
            <DataList.Root orientation={{ initial: "vertical", sm: "horizontal" }}>
              {SHOWN.map((column) => (
                <DataList.Item key={column}>
                  <DataList.Label minWidth="180px">{COLUMN_LABELS[column]}</DataList.Label>
                  <DataList.Value>{cellText(order, column)}</DataList.Value>
                </DataList.Item>
              ))}
              <DataList.Item>
                <DataList.Label minWidth="180px">Last Updated</DataList.Label>
                <DataList.Value>{usDateTime(order.lastUpdated)}</DataList.Value>
              </DataList.Item>
            </DataList.Root>
          </Card>
          <Card>
            {explained && (
              <Text as="p" size="2" mb="3" role="status">
                The order's fields come from the supplier's files and change with the next file; the
                notes are yours to edit.
              </Text>
            )}
            <NotesEditor orderId={order.id} initial={order.notes} editRequest={editRequest} />
          </Card>
        </Flex>
      )}
    </Container>
  );
}
