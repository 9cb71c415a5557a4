import { AlertDialog, Box, Button, Flex } from "@radix-ui/themes";
import { useState } from "react";
import type { UserAccount } from "../../api/accounts.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";

interface Props {
  /** The user to delete; null keeps the dialog closed. */
  user: UserAccount | null;
  onCancel: () => void;
  /** Sends the delete; rejects on failure, which keeps the dialog open. */
  onConfirm: (user: UserAccount) => Promise<void>;
}

/** "Confirm Deletion" for a user row (spec part 1, section 4, Delete). */
export function DeleteUserDialog({ user, onCancel, onConfirm }: Props) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const confirm = async () => {
    if (!user) return;
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm(user);
    } catch (error) {
      // The error is logged by the caller; the dialog stays open, with the reason.
      setFailure(error instanceof Error ? error.message : "The user could not be deleted.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog.Root
      open={user !== null}
      onOpenChange={(open) => {
        if (!open) {
          setFailure(null);
          onCancel();
        }
      }}
    >
      <AlertDialog.Content maxWidth="425px">
        <AlertDialog.Title>Confirm Deletion</AlertDialog.Title>
        <AlertDialog.Description size="2">
          Are you sure you want to delete "{user?.username}"?
        </AlertDialog.Description>
        {failure && (
          <Box mt="3">
            <ErrorAlert>{failure}</ErrorAlert>
          </Box>
        )}
        <Flex justify="end" gap="3" mt="4">
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
