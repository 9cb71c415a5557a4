import { Button, Card, Code, Dialog, Flex, Heading, Table, Text } from "@radix-ui/themes";
import { type FormEvent, useEffect, useId, useState } from "react";
import { toast } from "sonner";
import {
  type AccessToken,
  createAccessToken,
  fetchAccessTokens,
  revokeAccessToken,
} from "./api.ts";
import { longDateTime } from "../../components/format_date.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { TextField } from "../../components/text_field.tsx";

/** "Create token" and its dialog: a name, then the token shown once with a copy button. */
function CreateTokenDialog({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [token, setToken] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setName("");
      setFailure(null);
    }
    // The token leaves the page's memory when the dialog closes: it is never shown again.
    setToken(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const created = await createAccessToken(name.trim());
      setToken(created.token);
      onCreated();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "The token could not be created.");
    } finally {
      setSaving(false);
    }
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token ?? "");
      toast.success("Token copied.");
    } catch {
      toast.error("Copying failed: select the token and copy it.");
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger>
        <Button variant="soft">Create token</Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="520px">
        <Dialog.Title>Create access token</Dialog.Title>
        {token
          ? (
            <Flex direction="column" gap="3">
              <Dialog.Description size="2">
                Copy the token now: it is shown only this once. It acts as you, with your
                permissions, until you revoke it.
              </Dialog.Description>
              <Code size="2" style={{ wordBreak: "break-all" }} data-testid="new access token">
                {token}
              </Code>
              <Flex justify="end" gap="3">
                <Button type="button" onClick={copy}>Copy</Button>
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">Done</Button>
                </Dialog.Close>
              </Flex>
            </Flex>
          )
          : (
            <form noValidate onSubmit={onSubmit}>
              <Dialog.Description size="2" mb="4">
                A token lets the command-line tool or a CI job use the API as you (sent as
                <Code>Authorization: Bearer</Code>).
              </Dialog.Description>
              <Flex direction="column" gap="3">
                {failure && <ErrorAlert>{failure}</ErrorAlert>}
                <TextField
                  label="Name"
                  value={name}
                  placeholder="e.g. CI pipeline"
                  onChange={(event) => setName(event.target.value)}
                />
              </Flex>
              <Flex justify="end" gap="3" mt="4">
                <Dialog.Close>
                  <Button type="button" variant="soft" color="gray">Cancel</Button>
                </Dialog.Close>
                <Button type="submit" loading={saving}>Create</Button>
              </Flex>
            </form>
          )}
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** The account page's "Access tokens" card: the user's tokens, Revoke, Create token. */
export function AccessTokensCard() {
  const headingId = useId();
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let current = true;
    fetchAccessTokens().then(
      (list) => current && setTokens(list),
      (error) => {
        console.error("Loading the access tokens failed", error);
        if (current) setTokens([]);
      },
    );
    return () => {
      current = false;
    };
  }, [reload]);

  const revoke = async (token: AccessToken) => {
    try {
      await revokeAccessToken(token.id);
      toast.success(`Token "${token.name}" revoked.`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Revoking failed.");
    }
    setReload((n) => n + 1);
  };

  return (
    <Card asChild mt="4">
      <section aria-labelledby={headingId}>
        <Flex justify="between" align="center" mb="3">
          <Heading as="h2" size="4" id={headingId}>Access tokens</Heading>
          <CreateTokenDialog onCreated={() => setReload((n) => n + 1)} />
        </Flex>
        {tokens && tokens.length === 0 && (
          <Text as="p" size="2" color="gray">
            No access tokens. An access token lets a program act as you without your password: the
            command-line tool gets one when you sign in there (its "login" command), or create one
            here with Create token and paste it into the program.
          </Text>
        )}
        {tokens && tokens.length > 0 && (
          <Table.Root size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Name</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Token</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Created</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Last used</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {tokens.map((token) => (
                <Table.Row key={token.id}>
                  <Table.RowHeaderCell>{token.name}</Table.RowHeaderCell>
                  <Table.Cell>
                    <Code>{token.hint}…</Code>
                  </Table.Cell>
                  <Table.Cell>{longDateTime(token.createdAt)}</Table.Cell>
                  <Table.Cell>
                    {token.lastUsedAt ? longDateTime(token.lastUsedAt) : "Never"}
                  </Table.Cell>
                  <Table.Cell>
                    <Button
                      size="1"
                      color="red"
                      variant="soft"
                      aria-label={`Revoke ${token.name}`}
                      onClick={() => revoke(token)}
                    >
                      Revoke
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </section>
    </Card>
  );
}
