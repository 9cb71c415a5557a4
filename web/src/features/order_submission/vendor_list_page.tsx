import { Badge, Checkbox, Flex, Grid, Text } from "@radix-ui/themes";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { ListCard, SelectionSwitch } from "../../components/list_card.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
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
        <ListCard
          key={vendor.id}
          name={vendor.vendorNameFromFile}
          menu={<ActionsMenu vendor={vendor} onDelete={() => askDelete(vendor)} />}
        >
          <Flex direction="column" gap="1">
            <SelectionSwitch checked={selected.has(vendor.id)} onToggle={() => toggle(vendor.id)} />
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
        </ListCard>
      ))}
    </Grid>
  );
}

/** /order-submission/vendor: the vendors as a table or cards, Add, Edit and Delete. */
export default function VendorListPage() {
  const list = useResource(
    ["submission-vendors"],
    loggedLoader(fetchVendors, "Error fetching order vendor sources"),
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
