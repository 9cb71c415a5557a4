import { Badge, Card, Checkbox, Flex, Grid, Heading, Switch, Text } from "@radix-ui/themes";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import { useSelection } from "../../components/use_selection.ts";
import { deleteVendor, fetchVendors, type OrderVendorSourceListEntry } from "./api.ts";

type Vendor = OrderVendorSourceListEntry;

function YesNo({ on }: { on: boolean }) {
  return <Badge color={on ? "green" : "gray"}>{on ? "Yes" : "No"}</Badge>;
}

function ActionsMenu({ vendor, onDelete }: { vendor: Vendor; onDelete(): void }) {
  return (
    <RowActionsMenu
      name={vendor.vendorNameFromFile}
      editHref={`/order-submission/vendor/edit/${vendor.id}`}
      onDelete={onDelete}
    />
  );
}

interface ViewProps {
  vendors: readonly Vendor[];
  selected: ReadonlySet<number>;
  toggle(id: number): void;
  askDelete(vendor: Vendor): void;
}

const EMPTY = "No order vendor sources found.";

function columnsOf(
  { selected, toggle, askDelete }: Omit<ViewProps, "vendors">,
): DataColumn<Vendor>[] {
  return [
    {
      key: "active",
      header: "Active",
      // Row selection only: the spec's checkbox changes nothing on the server.
      cell: (v) => (
        <Checkbox
          aria-label={`Select ${v.vendorNameFromFile}`}
          checked={selected.has(v.id)}
          onCheckedChange={() => toggle(v.id)}
        />
      ),
    },
    { key: "name", header: "Vendor Name", rowHeader: true, cell: (v) => v.vendorNameFromFile },
    { key: "emails", header: "Emails to", cell: (v) => v.submitEmails },
    {
      key: "trimmed",
      header: "Trimmed Details",
      cell: (v) => <YesNo on={v.vendorWantsTrimmedItemDescription} />,
    },
    {
      key: "nonDaily",
      header: "Non Daily Submission",
      cell: (v) => <YesNo on={v.vendorWantsNonDailySubmission} />,
    },
    { key: "pdf", header: "Wants PDF", cell: (v) => <YesNo on={v.vendorWantsPDF} /> },
    { key: "allData", header: "Wants all data", cell: (v) => <YesNo on={v.vendorWantsAllData} /> },
    {
      key: "actions",
      header: null,
      headerProps: { "aria-label": "Actions" },
      cell: (v) => <ActionsMenu vendor={v} onDelete={() => askDelete(v)} />,
    },
  ];
}

function VendorCards({ vendors, selected, toggle, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {vendors.map((vendor) => (
        <Card key={vendor.id} asChild>
          <section aria-label={vendor.vendorNameFromFile}>
            <Flex justify="between" align="center" mb="2">
              <Heading as="h2" size="4">{vendor.vendorNameFromFile}</Heading>
              <ActionsMenu vendor={vendor} onDelete={() => askDelete(vendor)} />
            </Flex>
            <Flex direction="column" gap="1">
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Switch
                    checked={selected.has(vendor.id)}
                    onCheckedChange={() => toggle(vendor.id)}
                  />
                  Active
                </Flex>
              </Text>
              <Text size="2">Emails to: {vendor.submitEmails}</Text>
              <Text size="2">
                Trimmed Details: <YesNo on={vendor.vendorWantsTrimmedItemDescription} />
              </Text>
              <Text size="2">
                Non Daily Submission: <YesNo on={vendor.vendorWantsNonDailySubmission} />
              </Text>
              <Text size="2">
                Wants PDF: <YesNo on={vendor.vendorWantsPDF} />
              </Text>
              <Text size="2">
                Wants all data: <YesNo on={vendor.vendorWantsAllData} />
              </Text>
            </Flex>
          </section>
        </Card>
      ))}
    </Grid>
  );
}

/** /order-submission/vendor: the vendors as a table or cards, Add, Edit and Delete. */
export default function VendorListPage() {
  const list = useResource(
    ["submission-vendors"],
    (signal) =>
      fetchVendors(signal).catch((error) => {
        if (!signal.aborted) console.error("Error fetching order vendor sources", error);
        throw error;
      }),
  );
  const { selected, toggle } = useSelection();

  return (
    <ListPage
      title="Order Submission Vendor Sources"
      addHref="/order-submission/vendor/edit/0"
      addLabel="Add Source"
      rows={list.data ?? (list.error ? [] : undefined)}
      loadingLabel="Loading order vendor sources"
      emptyCards={EMPTY}
      table={(rows, { askDelete }) => (
        <DataTable
          rows={rows}
          columns={columnsOf({ selected, toggle, askDelete })}
          rowKey={(vendor) => vendor.id}
          empty={EMPTY}
        />
      )}
      cards={(rows, { askDelete }) => (
        <VendorCards vendors={rows} selected={selected} toggle={toggle} askDelete={askDelete} />
      )}
      deletion={{
        nameOf: (vendor) => vendor.vendorNameFromFile,
        remove: removeListedRow(list, deleteVendor, "Error deleting order vendor source"),
      }}
    />
  );
}
