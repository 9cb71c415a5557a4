import {
  Button,
  Card,
  Checkbox,
  DropdownMenu,
  Flex,
  Grid,
  Heading,
  Switch,
  Text,
  VisuallyHidden,
} from "@radix-ui/themes";
import { useState } from "react";
import { toast } from "sonner";
import { Link, useLocation } from "wouter";
import {
  deleteEmailSource,
  type EmailSource,
  fetchEmailSources,
  pollEmailSource,
  type PollResult,
} from "./api.ts";
import { type DataColumn, DataTable } from "../../components/data_table.tsx";
import { longDateTime } from "../../components/format_date.ts";
import { ListPage } from "../../components/list_page.tsx";
import { useResource } from "../../components/use_resource.ts";
import { removeListedRow } from "../../components/remove_listed_row.ts";
import { SendTestEmailDialog } from "./send_test_email_dialog.tsx";
import { watchText } from "./watch_text.ts";

export const NO_SOURCES_CARDS = "No email sources found.";
export const NO_SOURCES_TABLE = "No results.";

interface Actions {
  onDelete: (source: EmailSource) => void;
  onTest: (source: EmailSource) => void;
  onCheck: (source: EmailSource) => void;
  /** Local only: the spec's active switches select, they do not save. */
  active: Record<number, boolean>;
  onActive: (source: EmailSource, on: boolean) => void;
  checking: number | null;
}

const yesNo = (on: boolean) => (on ? "Yes" : "No");

/** What a user sees of the mailbox's watching: listening or polling, last success, last error. */
function PollStatus({ source }: { source: EmailSource }) {
  const watching = watchText(source);
  return (
    <Flex direction="column" gap="1">
      {watching && <Text size="1">{watching}</Text>}
      <Text size="1" color="gray">
        Last checked:{" "}
        {source.lastSuccessfulPoll ? longDateTime(source.lastSuccessfulPoll) : "Never"}
      </Text>
      {source.lastPollError && <Text size="1" color="red">{source.lastPollError}</Text>}
    </Flex>
  );
}

function ActionsMenu({ source, actions }: { source: EmailSource; actions: Actions }) {
  const [, navigate] = useLocation();
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger>
        <Button size="1" variant="soft" aria-label={`Actions for ${source.username}`}>
          Actions
          <DropdownMenu.TriggerIcon />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content>
        <DropdownMenu.Item onSelect={() => navigate(`/email-sources/edit/${source.id}`)}>
          Edit
        </DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => actions.onTest(source)}>
          Send Test Email
        </DropdownMenu.Item>
        <DropdownMenu.Item onSelect={() => actions.onCheck(source)}>Check Now</DropdownMenu.Item>
        <DropdownMenu.Separator />
        <DropdownMenu.Item color="red" onSelect={() => actions.onDelete(source)}>
          Delete
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}

function SourcesTable({ sources, actions }: { sources: readonly EmailSource[]; actions: Actions }) {
  const columns: DataColumn<EmailSource>[] = [
    {
      key: "active",
      header: "Active",
      cell: (source) => (
        <Checkbox
          aria-label={`Active ${source.username}`}
          checked={actions.active[source.id] ?? source.activeStatus}
          onCheckedChange={(on) => actions.onActive(source, on === true)}
        />
      ),
    },
    { key: "username", header: "Username", rowHeader: true, cell: (source) => source.username },
    { key: "email", header: "Email Address", cell: (source) => source.email },
    { key: "incoming", header: "Incoming Server", cell: (source) => source.incomingServer },
    { key: "outgoing", header: "Outgoing Server", cell: (source) => source.outgoingServer },
    {
      key: "ssl",
      header: "Use SSL",
      cell: (source) => (
        <Checkbox aria-label={`Use SSL ${source.username}`} checked={source.ssl} disabled />
      ),
    },
    { key: "mailbox", header: "Mailbox", cell: (source) => <PollStatus source={source} /> },
    {
      key: "actions",
      header: <VisuallyHidden>Actions</VisuallyHidden>,
      cell: (source) => <ActionsMenu source={source} actions={actions} />,
    },
  ];
  return (
    <DataTable
      rows={sources}
      columns={columns}
      rowKey={(source) => source.id}
      caption="Email sources"
      empty={NO_SOURCES_TABLE}
    />
  );
}

function SourceCards({ sources, actions }: { sources: readonly EmailSource[]; actions: Actions }) {
  return (
    <Grid columns={{ initial: "1", sm: "2", lg: "3" }} gap="3">
      {sources.map((source) => (
        <Card key={source.id} asChild>
          <article aria-label={source.username}>
            <Flex direction="column" gap="2">
              <Flex justify="between" align="center" gap="2">
                <Heading as="h2" size="4">{source.username}</Heading>
                <Text as="label" size="2">
                  <Flex gap="2" align="center">
                    <Switch
                      checked={actions.active[source.id] ?? source.activeStatus}
                      onCheckedChange={(on) => actions.onActive(source, on)}
                    />
                    Active
                  </Flex>
                </Text>
              </Flex>
              <Text size="2">Server: {source.incomingServer || "—"}</Text>
              <Text size="2">Port: {source.incomingPort ?? "—"}</Text>
              <Text size="2">Email: {source.email}</Text>
              <Text size="2">SSL: {yesNo(source.ssl)}</Text>
              <PollStatus source={source} />
              <Flex gap="2" wrap="wrap">
                <Button asChild size="1" variant="soft">
                  <Link href={`/email-sources/edit/${source.id}`}>Edit</Link>
                </Button>
                <Button size="1" variant="soft" onClick={() => actions.onTest(source)}>
                  Send Test Email
                </Button>
                <Button
                  size="1"
                  variant="soft"
                  loading={actions.checking === source.id}
                  onClick={() => actions.onCheck(source)}
                >
                  Check Now
                </Button>
                <Button
                  size="1"
                  variant="soft"
                  color="red"
                  onClick={() => actions.onDelete(source)}
                >
                  Delete
                </Button>
              </Flex>
            </Flex>
          </article>
        </Card>
      ))}
    </Grid>
  );
}

/** What "Check now" tells the user. */
export function pollMessage(result: PollResult): string {
  if (result.error) return `Check failed: ${result.error}`;
  if (!result.polled) return "This mailbox is being checked right now; try again in a moment.";
  return `${result.seen} new message(s), ${result.matched} matched, ${result.runs} import run(s).`;
}

/**
 * /email-sources: a table (or cards, toggled from 768 px; cards only below), delete with
 * confirmation, the test e-mail dialog and "Check now" (polls the mailbox at once).
 */
export default function EmailSourceListPage() {
  const list = useResource(["email-sources"], async (signal) => {
    try {
      return await fetchEmailSources(signal);
    } catch (error) {
      if (signal.aborted) throw error;
      console.error("Error fetching email sources", error);
      throw error;
    }
  }, { keepPrevious: true });
  // A failed first load shows an empty list; a failed reload keeps the rows.
  const sources = list.data ?? (list.error ? [] : undefined);
  const [toTest, setToTest] = useState<EmailSource | null>(null);
  const [active, setActive] = useState<Record<number, boolean>>({});
  const [checking, setChecking] = useState<number | null>(null);

  const remove = removeListedRow(list, deleteEmailSource, "Error deleting email source");

  const check = async (source: EmailSource) => {
    setChecking(source.id);
    try {
      const result = await pollEmailSource(source.id);
      if (result.error) toast.error(pollMessage(result));
      else toast.success(pollMessage(result));
      list.reload();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "The check failed.");
    } finally {
      setChecking(null);
    }
  };

  const actionsFor = (askDelete: (source: EmailSource) => void): Actions => ({
    onDelete: askDelete,
    onTest: setToTest,
    onCheck: check,
    active,
    onActive: (source, on) => setActive((old) => ({ ...old, [source.id]: on })),
    checking,
  });
  return (
    <ListPage
      title="Email Sources"
      addHref="/email-sources/edit/0"
      addLabel="Add Source"
      actions={
        <Button asChild variant="soft">
          <Link href="/runs">Runs</Link>
        </Button>
      }
      rows={sources}
      loadingLabel="Loading email sources"
      table={(rows, { askDelete }) => (
        <SourcesTable sources={rows} actions={actionsFor(askDelete)} />
      )}
      cards={(rows, { askDelete }) => (
        <SourceCards
          sources={rows}
          actions={actionsFor(askDelete)}
        />
      )}
      emptyCards={NO_SOURCES_CARDS}
      deletion={{ nameOf: (source) => source.username, remove }}
    >
      <SendTestEmailDialog source={toTest} onClose={() => setToTest(null)} />
    </ListPage>
  );
}
