import { AlertDialog, Button, Flex } from "@radix-ui/themes";
import { useState } from "react";
import type { EmailSource } from "../../api/email_sources.ts";

interface Props {
  /** The source to delete; null keeps the dialog closed. */
  source: EmailSource | null;
  onCancel: () => void;
  /** Sends the delete; rejects on failure, which keeps the dialog open. */
  onConfirm: (source: EmailSource) => Promise<void>;
}

/**
 * "Confirm Deletion" naming the source's username (spec part 2, section 2). A failed delete is
 * only logged and the dialog stays open (section 4).
 */
export function DeleteSourceDialog({ source, onCancel, onConfirm }: Props) {
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!source) return;
    setBusy(true);
    try {
      await onConfirm(source);
    } catch {
      // Logged by the caller; the spec shows the user nothing.
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={source !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Content maxWidth="425px">
        <AlertDialog.Title>Confirm Deletion</AlertDialog.Title>
        <AlertDialog.Description size="2">
          Are you sure you want to delete "{source?.username}"?
        </AlertDialog.Description>
        <Flex justify="end" gap="3" mt="4">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray">Cancel</Button>
          </AlertDialog.Cancel>
          <Button color="red" loading={busy} onClick={confirm}>Delete</Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
