import { Card, DataList, Flex, Grid, Heading, Select, Text } from "@radix-ui/themes";
import { useId } from "react";
import type { Order } from "./api.ts";
import { cellText, COLUMN_LABELS, type OrderTrackingColumn } from "./columns.ts";
import { OrderActions, type Sort } from "./orders_table.tsx";

/** The card's title: the customer's PO number, else the order's id. */
export function orderTitle(order: Order): string {
  return order.customerPoNumber || `Order ${order.id}`;
}

interface Props {
  orders: readonly Order[];
  /** The columns the user chose, in the table's order. */
  columns: readonly OrderTrackingColumn[];
  onDelete(order: Order): void;
}

/**
 * The order list under 768 px (issue 24): one card per order instead of a 2,000 px table. The
 * title is the PO number, the row actions sit beside it, then the chosen columns that have a
 * value, label beside value; long values wrap inside the card.
 */
export function OrderCards({ orders, columns, onDelete }: Props) {
  if (orders.length === 0) return <Text as="p" color="gray">No results.</Text>;
  return (
    <Grid columns={{ initial: "1", xs: "2" }} gap="3" data-testid="order-cards">
      {orders.map((order) => {
        const title = orderTitle(order);
        // The PO number is the title already.
        const facts = columns.filter((column) =>
          column !== "customerPoNumber" && cellText(order, column) !== ""
        );
        const listed = columns.filter((column) => column !== "customerPoNumber");
        return (
          <Card key={order.id} asChild>
            <section aria-label={`Order ${title}`}>
              <Flex justify="between" align="start" gap="2" mb="2">
                <Heading as="h2" size="3" style={{ overflowWrap: "anywhere" }}>{title}</Heading>
                <OrderActions order={order} onDelete={onDelete} variant="soft" />
              </Flex>
              <DataList.Root size="1">
                {facts.map((column) => (
                  <DataList.Item key={column}>
                    <DataList.Label minWidth="104px">{COLUMN_LABELS[column]}</DataList.Label>
                    <DataList.Value style={{ overflowWrap: "anywhere" }}>
                      {cellText(order, column)}
                    </DataList.Value>
                  </DataList.Item>
                ))}
              </DataList.Root>
              {facts.length < listed.length && (
                <Text as="p" size="1" color="gray" mt="2">
                  Empty fields are left out.
                </Text>
              )}
            </section>
          </Card>
        );
      })}
    </Grid>
  );
}

const UNSORTED = "none";

/**
 * The cards' sort (the table sorts by its headers, which cards do not have): one column and a
 * direction, the same sort the table would send.
 */
export function CardSort(
  { columns, sort, onSort }: {
    columns: readonly OrderTrackingColumn[];
    sort: Sort;
    onSort(sort: Sort): void;
  },
) {
  const byId = useId();
  const directionId = useId();
  const [first] = sort;
  return (
    <Flex gap="3" wrap="wrap" align="end">
      <Flex direction="column" gap="1">
        <Text as="label" htmlFor={byId} size="2" weight="medium">Sort by</Text>
        <Select.Root
          value={first?.[0] ?? UNSORTED}
          onValueChange={(value) =>
            onSort(value === UNSORTED ? [] : [[value as OrderTrackingColumn, first?.[1] ?? true]])}
        >
          <Select.Trigger id={byId} />
          <Select.Content>
            <Select.Item value={UNSORTED}>Not sorted</Select.Item>
            {columns.map((column) => (
              <Select.Item key={column} value={column}>{COLUMN_LABELS[column]}</Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </Flex>
      {first && (
        <Flex direction="column" gap="1">
          <Text as="label" htmlFor={directionId} size="2" weight="medium">Direction</Text>
          <Select.Root
            value={first[1] ? "asc" : "desc"}
            onValueChange={(value) => onSort([[first[0], value === "asc"]])}
          >
            <Select.Trigger id={directionId} />
            <Select.Content>
              <Select.Item value="asc">Ascending</Select.Item>
              <Select.Item value="desc">Descending</Select.Item>
            </Select.Content>
          </Select.Root>
        </Flex>
      )}
    </Flex>
  );
}
