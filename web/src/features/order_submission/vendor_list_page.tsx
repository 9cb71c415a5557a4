import { Badge, Flex, Grid, Text } from "@radix-ui/themes";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { ListCard } from "../../components/list_card.tsx";
import { ActiveCheckbox, ActiveSwitch } from "../../components/active_controls.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import { useActiveToggles } from "../../components/use_active_toggles.ts";
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
  isActive(row: { id: number; activeStatus: boolean }): boolean;
  setActive(id: number, on: boolean): void;
  askDelete(vendor: Vendor): void;
}

const EMPTY = "No order vendor sources found.";

function columnsOf(
  { isActive, setActive, askDelete }: Omit<ViewProps, "vendors">,
): DataColumn<Vendor>[] {
  return [
    {
      key: "active",
      header: "Active",
      // The stored state; a click changes it on this page only (spec section 4).
      cell: (v) => (
        <ActiveCheckbox
          name={v.vendorNameFromFile}
          checked={isActive(v)}
          onChange={(on) => setActive(v.id, on)}
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

function VendorCards({ vendors, isActive, setActive, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {vendors.map((vendor) => (
        <ListCard
          key={vendor.id}
          name={vendor.vendorNameFromFile}
          menu={<ActionsMenu vendor={vendor} onDelete={() => askDelete(vendor)} />}
        >
          <Flex direction="column" gap="1">
            <ActiveSwitch
              name={vendor.vendorNameFromFile}
              checked={isActive(vendor)}
              onChange={(on) => setActive(vendor.id, on)}
            />
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
  const { isActive, setActive } = useActiveToggles();

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
          columns={columnsOf({ isActive, setActive, askDelete })}
          rowKey={(vendor) => vendor.id}
          empty={EMPTY}
        />
      )}
      cards={(rows, { askDelete }) => (
        <VendorCards
          vendors={rows}
          isActive={isActive}
          setActive={setActive}
          askDelete={askDelete}
        />
      )}
      deletion={{
        nameOf: (vendor) => vendor.vendorNameFromFile,
        remove: removeListedRow(list, deleteVendor, "Error deleting order vendor source"),
      }}
    />
  );
}
