import { Button, Dialog, Flex } from "@radix-ui/themes";
import { type FormEvent, useState } from "react";
import { updateUsername } from "./api.ts";
import { messageOr } from "../../api/call.ts";
import { TextField } from "../../components/text_field.tsx";
import { ErrorAlert } from "../../components/error_alert.tsx";

interface Props {
  userId: number;
  username: string;
  /** Runs after a successful change (200 or 204) with the new name. */
  onChanged: (username: string) => void;
}

/** "Change Username" button and its 425 px dialog (spec part 1, section 2). */
export function ChangeUsernameDialog({ userId, username, onChanged }: Props) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(username);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    // Each opening starts from the current name.
    if (next) {
      setValue(username);
      setFailure(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const newUsername = value.trim();
      await updateUsername(userId, username, newUsername);
      setOpen(false);
      onChanged(newUsername);
    } catch (error) {
      console.error("Request failed", error);
      setFailure(messageOr(error, "The username could not be changed."));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger>
        <Button variant="soft">Change Username</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="425px">
        <Dialog.Title>Change Username</Dialog.Title>
        <Dialog.Description size="2" mb="4">
          Enter the new username you will log in with.
        </Dialog.Description>
        <form noValidate onSubmit={onSubmit}>
          <Flex direction="column" gap="3">
            {failure && <ErrorAlert>{failure}</ErrorAlert>}
            <TextField
              label="Username"
              autoComplete="username"
              value={value}
              onChange={(event) => setValue(event.target.value)}
            />
          </Flex>
          <Flex justify="end" gap="3" mt="4">
            <Dialog.Close>
              <Button type="button" variant="soft" color="gray">Cancel</Button>
            </Dialog.Close>
            <Button type="submit" loading={saving}>Save Changes</Button>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
