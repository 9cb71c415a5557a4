import { Button, Container, Flex, Heading, Text } from "@radix-ui/themes";
import { type ReactNode, useState } from "react";
import { Link } from "wouter";
import { messageOr } from "../api/call.ts";
import { DeleteDialog } from "./delete_dialog.tsx";
import { ListViewToggle, useListView } from "./list_view.tsx";
import { Loading } from "./loading.tsx";
import { TABLET_MIN_WIDTH } from "./use_min_width.ts";

/** What a list page gives its table and cards. */
export interface ListContext<T> {
  /** Opens the delete confirmation for a row. */
  askDelete(row: T): void;
}

/** How a list page deletes a row. */
export interface ListDeletion<T> {
  /** The row's name in "Are you sure you want to delete "…"?". */
  nameOf(row: T): string;
  /** Sends the delete and updates the rows; throws when it failed (the dialog stays open). */
  remove(row: T): Promise<void>;
  /**
   * The text shown in the dialog for a failed delete; by default the server's reason (a source
   * still in use answers 409 with it), else {@link DELETE_FAILED}.
   */
  failureText?(error: unknown): string | null;
}

/** A failed delete whose answer gave no reason (a network failure). */
export const DELETE_FAILED = "The delete did not go through. Please try again.";

/** A failed delete's text: the server's reason, else {@link DELETE_FAILED}. */
export function deleteFailureText(error: unknown): string {
  return messageOr(error, DELETE_FAILED);
}

interface Props<T> {
  /** The page heading (h1). */
  title: string;
  /** Where the Add button goes, and its text ("Add Source"). */
  addHref: string;
  addLabel: string;
  /** More buttons before the Add button. */
  actions?: ReactNode;
  /** Content between the heading row and the rows (filters, a count line). */
  above?: ReactNode;
  /** The width from which the table/cards toggle shows; cards only below (spec: 768 px). */
  toggleFrom?: number;
  /** The rows; undefined while the first load runs. */
  rows: readonly T[] | undefined;
  loadingLabel: string;
  table(rows: readonly T[], context: ListContext<T>): ReactNode;
  /** The cards of a non-empty list (the page lays out its grid). */
  cards(rows: readonly T[], context: ListContext<T>): ReactNode;
  /** Shown instead of the cards when there are no rows. */
  emptyCards: string;
  deletion?: ListDeletion<T>;
  /** Dialogs and other content of the page. */
  children?: ReactNode;
}

/**
 * A list screen (spec part 1 section 4, part 2 section 2): heading, Add button, the table/cards
 * toggle from `toggleFrom` up (cards forced below; list_view.tsx), a loading state, the empty
 * text of the cards, and the delete confirmation.
 */
export function ListPage<T>(props: Props<T>) {
  const { view, chosen, setChosen, canChoose } = useListView(props.toggleFrom ?? TABLET_MIN_WIDTH);
  const [toDelete, setToDelete] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const context: ListContext<T> = {
    askDelete: (row) => {
      setFailure(null);
      setToDelete(row);
    },
  };
  const { deletion, rows } = props;

  const confirmDelete = async (): Promise<boolean> => {
    if (toDelete === null || !deletion) return false;
    setFailure(null);
    try {
      await deletion.remove(toDelete);
      return true;
    } catch (error) {
      setFailure(deletion.failureText ? deletion.failureText(error) : deleteFailureText(error));
      return false;
    }
  };
  const closeDelete = () => {
    setFailure(null);
    setToDelete(null);
  };

  return (
    <Container size="4" p="4">
      <Flex justify="between" align="center" gap="3" mb="4" wrap="wrap">
        <Heading as="h1">{props.title}</Heading>
        <Flex gap="3" align="center" wrap="wrap">
          {canChoose && <ListViewToggle value={chosen} onChange={setChosen} />}
          {props.actions}
          <Button asChild>
            <Link href={props.addHref}>{props.addLabel}</Link>
          </Button>
        </Flex>
      </Flex>
      {props.above}
      {rows === undefined
        ? <Loading label={props.loadingLabel} />
        : view === "table"
        ? props.table(rows, context)
        : rows.length === 0
        ? <Text as="p" color="gray">{props.emptyCards}</Text>
        : props.cards(rows, context)}
      {deletion && (
        <DeleteDialog
          name={toDelete === null ? null : deletion.nameOf(toDelete)}
          onCancel={closeDelete}
          onConfirm={confirmDelete}
          failure={failure}
        />
      )}
      {props.children}
    </Container>
  );
}
