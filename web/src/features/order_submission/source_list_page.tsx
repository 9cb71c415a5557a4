import { Flex, Grid, Text } from "@radix-ui/themes";
import { type DataColumn, DataTable, SOURCE_LIST_HINTS } from "../../components/data_table.tsx";
import { ListPage } from "../../components/list_page.tsx";
import { ListCard } from "../../components/list_card.tsx";
import { ActiveCheckbox, ActiveSwitch } from "../../components/active_controls.tsx";
import { RowActionsMenu } from "../../components/row_actions_menu.tsx";
import { useResource } from "../../components/use_resource.ts";
import { loggedLoader } from "../../components/logged_loader.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import { useActiveToggles } from "../../components/use_active_toggles.ts";
import {
  deleteSubmissionSource,
  fetchSubmissionSources,
  type OrderSubmissionSource,
} from "./api.ts";

const yesNo = (on: boolean) => on ? "Yes" : "No";

/** The table's columns and their priorities (the spec leaves them open; docs say why). */
function columnsOf(
  { isActive, setActive, askDelete }: Omit<ViewProps, "sources">,
): DataColumn<OrderSubmissionSource>[] {
  return [
    {
      key: "active",
      header: "Active",
      // The stored state; a click changes it on this page only (spec section 4).
      cell: (s) => (
        <ActiveCheckbox
          name={s.sourceName}
          checked={isActive(s)}
          onChange={(on) => setActive(s.id, on)}
        />
      ),
    },
    { key: "name", header: "Source Name", rowHeader: true, cell: (s) => s.sourceName },
    { key: "from", header: "From Email", cell: (s) => s.fromEmail },
    { key: "subject", header: "Subject Value", priority: "medium", cell: (s) => s.subjectValue },
    {
      key: "attachments",
      header: "Att. Count",
      priority: "medium",
      cell: (s) => s.expectedAttachmentCount,
    },
    {
      key: "batch",
      header: "Batch Emails",
      priority: "medium",
      cell: (s) => s.expectedNumberOfBatchEmails,
    },
    { key: "fileType", header: "File Type", priority: "low", cell: (s) => s.fileType },
    {
      key: "attachmentName",
      header: "Attachment Name",
      priority: "low",
      cell: (s) => s.attachmentName,
    },
    {
      key: "linkClick",
      header: "Link Click",
      priority: "low",
      cell: (s) => yesNo(s.noAttachmentsNeedsLinkClick),
    },
    {
      key: "actions",
      header: null,
      headerProps: { "aria-label": "Actions" },
      cell: (s) => <ActionsMenu source={s} onDelete={() => askDelete(s)} />,
    },
  ];
}

function ActionsMenu(
  { source, onDelete }: { source: OrderSubmissionSource; onDelete(): void },
) {
  return (
    <RowActionsMenu
      name={source.sourceName}
      editHref={`/order-submission/sources/edit/${source.id}`}
      onDelete={onDelete}
    />
  );
}

interface ViewProps {
  sources: readonly OrderSubmissionSource[];
  isActive(row: { id: number; activeStatus: boolean }): boolean;
  setActive(id: number, on: boolean): void;
  askDelete(source: OrderSubmissionSource): void;
}

function SourceCards({ sources, isActive, setActive, askDelete }: ViewProps) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => (
        <ListCard
          key={source.id}
          name={source.sourceName}
          menu={<ActionsMenu source={source} onDelete={() => askDelete(source)} />}
        >
          <Flex direction="column" gap="1">
            <ActiveSwitch
              name={source.sourceName}
              checked={isActive(source)}
              onChange={(on) => setActive(source.id, on)}
            />
            <Text size="2">From Email: {source.fromEmail}</Text>
            <Text size="2">Subject: {source.subjectValue}</Text>
            <Text size="2">File Type: {source.fileType || "N/A"}</Text>
            <Text size="2">Att. Count: {source.expectedAttachmentCount}</Text>
            <Text size="2">Batch Emails: {source.expectedNumberOfBatchEmails}</Text>
          </Flex>
        </ListCard>
      ))}
    </Grid>
  );
}

/** /order-submission/sources: the sources as a table or cards, Add, Edit and Delete. */
export default function SourceListPage() {
  const list = useResource(
    ["submission-sources"],
    loggedLoader(fetchSubmissionSources, "Error fetching order submission sources"),
  );
  const { isActive, setActive } = useActiveToggles();

  return (
    <ListPage
      title="Order Submission Sources"
      addHref="/order-submission/sources/edit/0"
      addLabel="Add Source"
      rows={list.data ?? (list.error ? [] : undefined)}
      loadingLabel="Loading order submission sources"
      emptyCards="No order submission sources found."
      table={(rows, { askDelete }) => (
        <DataTable
          rows={rows}
          columns={columnsOf({ isActive, setActive, askDelete })}
          rowKey={(source) => source.id}
          hints={SOURCE_LIST_HINTS}
        />
      )}
      cards={(rows, { askDelete }) => (
        <SourceCards
          sources={rows}
          isActive={isActive}
          setActive={setActive}
          askDelete={askDelete}
        />
      )}
      deletion={{
        nameOf: (source) => source.sourceName,
        remove: removeListedRow(
          list,
          deleteSubmissionSource,
          "Error deleting order submission source",
        ),
      }}
    />
  );
}
