import { AlertDialog, Box, Button, Flex } from "@radix-ui/themes";
import { useState } from "react";
import { ErrorAlert } from "./error_alert.tsx";

interface Props {
  /** What is deleted, shown in quotes in the question; null closes the dialog. */
  name: string | null;
  onCancel(): void;
  /** Sends the delete; resolves true when it worked (the dialog then closes). */
  onConfirm(): Promise<boolean>;
  /** Why the last delete failed, shown in the dialog (the server's reason when it gave one). */
  failure?: string | null;
}

/**
 * The list pages' delete confirmation (spec part 1, section 4 "Delete"): "Confirm Deletion",
 * Cancel and Delete. A failed delete keeps the dialog open; the caller logs it.
 */
export function DeleteDialog({ name, onCancel, onConfirm, failure }: Props) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      if (await onConfirm()) onCancel();
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={name !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Content maxWidth="450px">
        <AlertDialog.Title>Confirm Deletion</AlertDialog.Title>
        <AlertDialog.Description size="2">
          Are you sure you want to delete "{name}"?
        </AlertDialog.Description>
        {failure && (
          <Box mt="3">
            <ErrorAlert>{failure}</ErrorAlert>
          </Box>
        )}
        <Flex gap="3" mt="4" justify="end">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">Cancel</Button>
          </AlertDialog.Cancel>
          {/* Not an AlertDialog.Action: that would close the dialog before the answer. */}
          <Button color="red" loading={busy} onClick={confirm}>Delete</Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
