/**
 * RunItemChanges: what one inventory run changed — the items it turned Inactive and Active with
 * the rule that decided each (issue 23). Embedded by the manual processing result (held runs
 * included), and meant for the run history page and the hold preview: `<RunItemChanges
 * runId={id} />`.
 */
import { Badge, Box, Flex, Heading, Link as RadixLink, Text } from "@radix-ui/themes";
import { useId, useState } from "react";
import { Link } from "wouter";
import type { ItemChange } from "../../../../shared/contract/inventory_items.ts";
import { messageOr } from "../../api/call.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { loggedLoader } from "../../components/logged_loader.ts";
import { Pager } from "../../components/pager.tsx";
import { useResource } from "../../components/use_resource.ts";
import { useMinWidth } from "../../components/use_min_width.ts";
import { fetchRunChanges, itemHref } from "./items_api.ts";
import { quantityText } from "./item_parts.tsx";

const PAGE_SIZES = [100, 500] as const;

function changeColumns(sourceId: number): DataColumn<ItemChange>[] {
  return [
    {
      key: "item",
      header: "Item Number",
      rowHeader: true,
      cell: (c) => (
        <RadixLink asChild>
          <Link href={itemHref(sourceId, c.itemNumber)}>{c.itemNumber}</Link>
        </RadixLink>
      ),
    },
    {
      key: "change",
      header: "Change",
      cell: (c) => <Badge color={c.to === "Active" ? "green" : "red"}>Turned {c.to}</Badge>,
    },
    {
      key: "why",
      header: "Why",
      priority: "medium",
      cell: (c) => (
        <Text size="2" style={{ overflowWrap: "anywhere" }}>
          {c.reason ?? "Not recorded (processed before the item view)"}
        </Text>
      ),
    },
    { key: "qty", header: "Quantity", priority: "low", cell: (c) => quantityText(c.quantity) },
  ];
}

/** The items one run turned Active and Inactive, with the reason, a page at a time. */
export function RunItemChanges({ runId }: { runId: number }) {
  const headingId = useId();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const wide = useMinWidth(768);
  const changes = useResource(
    ["inventory-run-items", runId, page, pageSize],
    loggedLoader(
      (signal) => fetchRunChanges(runId, { page, pageSize }, signal),
      "Error fetching the run's item changes",
    ),
    { keepPrevious: true },
  );
  const data = changes.data;
  const total = data ? data.turnedActive + data.turnedInactive : 0;
  return (
    <Box asChild>
      <section aria-labelledby={headingId}>
        <Heading as="h2" size="3" id={headingId} mb="2">Items Changed by This Run</Heading>
        {changes.error !== undefined && (
          <ErrorAlert>
            {messageOr(changes.error, "Could not load what the run changed.")}
          </ErrorAlert>
        )}
        {data && (
          <Flex direction="column" gap="2">
            <Text as="p" size="2" role="status">
              {total === 0
                ? "This run turned no item Active or Inactive."
                : `${data.turnedInactive} turned Inactive, ${data.turnedActive} turned Active${
                  data.deliveryStatus === "held" ? " (held: not delivered yet)" : ""
                }.`}
            </Text>
            {total > 0 && (wide
              ? (
                <DataTable
                  rows={data.changes}
                  columns={changeColumns(data.sourceId)}
                  rowKey={(c) => c.itemNumber}
                  caption="Items changed by this run"
                  size="1"
                />
              )
              : (
                <Flex asChild direction="column" gap="2" m="0" p="0" style={{ listStyle: "none" }}>
                  <ul aria-label="Items changed by this run">
                    {data.changes.map((c) => (
                      <li key={c.itemNumber}>
                        <Flex direction="column" gap="1">
                          <Flex gap="2" align="center" wrap="wrap">
                            <RadixLink asChild>
                              <Link href={itemHref(data.sourceId, c.itemNumber)}>
                                {c.itemNumber}
                              </Link>
                            </RadixLink>
                            <Badge color={c.to === "Active" ? "green" : "red"}>
                              Turned {c.to}
                            </Badge>
                          </Flex>
                          <Text size="1" style={{ overflowWrap: "anywhere" }}>
                            {c.reason ?? "Not recorded (processed before the item view)"}
                          </Text>
                        </Flex>
                      </li>
                    ))}
                  </ul>
                </Flex>
              ))}
            {total > pageSize && (
              <Pager
                pageIndex={page}
                pageCount={Math.ceil(total / pageSize)}
                pageSize={pageSize}
                pageSizes={PAGE_SIZES}
                onPage={setPage}
                onPageSize={(size) => {
                  setPageSize(size);
                  setPage(1);
                }}
              />
            )}
          </Flex>
        )}
      </section>
    </Box>
  );
}
