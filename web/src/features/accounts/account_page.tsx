import { Button, Card, Container, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { useAtom } from "jotai";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import {
  allColumnsEnabled,
  type EnabledColumns,
  ORDER_TRACKING_COLUMNS,
} from "../../../../shared/contract/order_columns.ts";
import {
  fetchSettings,
  fetchUserInfo,
  type OrderTrackingSettings,
  saveSettings,
  updateUserInfo,
  type UserInfo,
} from "./api.ts";
import { longDateTime } from "../../components/format_date.ts";
import { Loading } from "../../components/loading.tsx";
import { useResource } from "../../components/use_resource.ts";
import { TextField } from "../../components/text_field.tsx";
import { currentUserAtom } from "../../state/session.ts";
import { usernameFromCookie } from "../../state/username.ts";
import { AccessTokensCard } from "./access_tokens_card.tsx";
import { ChangePasswordDialog } from "./change_password_dialog.tsx";
import { ChangeUsernameDialog } from "./change_username_dialog.tsx";
import { ColumnsDialog } from "./columns_dialog.tsx";
import { ConfigWarnings } from "./config_warnings.tsx";

type Profile = Pick<UserInfo, "email" | "firstName" | "lastName">;

/** Every column from a server record: anything not explicitly false counts as on. */
function columnsOf(record: Partial<Record<string, unknown>> | undefined): EnabledColumns {
  const columns = allColumnsEnabled();
  for (const name of ORDER_TRACKING_COLUMNS) columns[name] = record?.[name] !== false;
  return columns;
}

function ReadOnlyCard({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <Card asChild>
      <section aria-labelledby={id}>
        <Flex direction="column" gap="1">
          <Text id={id} size="2" weight="medium" color="gray">{label}</Text>
          <Text size="3" data-testid={`${label} value`}>{value}</Text>
        </Flex>
      </section>
    </Card>
  );
}

function EditableCard(
  { label, value, type, onChange, onSave }: {
    label: string;
    value: string;
    type?: "email" | "text";
    onChange: (value: string) => void;
    onSave: () => void;
  },
) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  return (
    <Card asChild>
      <form noValidate aria-label={label} onSubmit={submit}>
        <Flex direction="column" gap="2">
          <TextField
            label={label}
            type={type ?? "text"}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
          <Flex justify="end">
            <Button type="submit" size="2">Save</Button>
          </Flex>
        </Flex>
      </form>
    </Card>
  );
}

/** /account: the user's own information, profile, username, password and view columns. */
export default function AccountPage() {
  const [currentUser, setCurrentUser] = useAtom(currentUserAtom);
  const [info, setInfo] = useState<UserInfo | null>(null);
  const [profile, setProfile] = useState<Profile>({ email: "", firstName: "", lastName: "" });
  const [settings, setSettings] = useState<OrderTrackingSettings>({
    id: 0,
    userId: 0,
    enabledColumns: allColumnsEnabled(),
  });
  const [reload, setReload] = useState(0);

  // The page keeps editable copies of what it loads, so the loader fills them in as it goes.
  const username = usernameFromCookie() ?? currentUser?.username;
  useResource(username ? ["account", username, reload] : null, async (signal) => {
    let loaded: UserInfo;
    try {
      loaded = await fetchUserInfo(username!, signal);
    } catch (error) {
      if (!signal.aborted) console.error("Error fetching data", error);
      return;
    }
    if (signal.aborted) return;
    setInfo(loaded);
    setProfile({ email: loaded.email, firstName: loaded.firstName, lastName: loaded.lastName });
    try {
      const stored = await fetchSettings(loaded.userId, signal);
      if (signal.aborted) return;
      setSettings({
        id: stored.id,
        // A record that belongs to nobody yet is the current user's (spec section 4).
        userId: stored.userId || loaded.userId,
        enabledColumns: columnsOf(stored.enabledColumns),
      });
    } catch (error) {
      if (signal.aborted) return;
      console.error("Error fetching order tracking view settings", error);
      setSettings((old) => ({ ...old, userId: loaded.userId }));
    }
  });

  if (!info) return <Loading label="Loading your account" />;

  const saveProfile = async () => {
    try {
      const saved = await updateUserInfo(info.userId, profile);
      setProfile({ email: saved.email, firstName: saved.firstName, lastName: saved.lastName });
      toast.success("Your information was saved.");
    } catch (error) {
      console.error("Request failed", error);
      toast.error(error instanceof Error ? error.message : "Saving failed.");
    }
  };

  const saveColumns = async () => {
    try {
      const saved = await saveSettings({ ...settings, userId: settings.userId || info.userId });
      setSettings({
        id: saved.id,
        userId: saved.userId,
        enabledColumns: columnsOf(saved.enabledColumns),
      });
      toast.success("Columns saved.");
    } catch (error) {
      console.error("failed", error);
      throw error;
    }
  };

  const onUsernameChanged = (username: string) => {
    if (currentUser) setCurrentUser({ ...currentUser, username });
    toast.success("Username changed.");
    setReload((n) => n + 1);
  };

  const setField = (key: keyof Profile) => (value: string) =>
    setProfile((old) => ({ ...old, [key]: value }));

  return (
    <Container size="3" p="4">
      <Heading as="h1" mb="1">Account Settings</Heading>
      <ConfigWarnings />
      <Heading as="h2" size="4" color="gray" weight="regular" mb="4">User Information</Heading>
      <Grid columns={{ initial: "1", sm: "2" }} gap="3" mb="4">
        <ReadOnlyCard label="User Id" value={String(info.userId)} />
        <ReadOnlyCard label="Username" value={info.username} />
        <ReadOnlyCard label="Last Login" value={longDateTime(info.lastLogin)} />
        <ReadOnlyCard label="Created On" value={longDateTime(info.createdOn)} />
      </Grid>
      <Grid columns={{ initial: "1", sm: "3" }} gap="3" mb="4">
        <EditableCard
          label="Email"
          type="email"
          value={profile.email}
          onChange={setField("email")}
          onSave={saveProfile}
        />
        <EditableCard
          label="First Name"
          value={profile.firstName}
          onChange={setField("firstName")}
          onSave={saveProfile}
        />
        <EditableCard
          label="Last Name"
          value={profile.lastName}
          onChange={setField("lastName")}
          onSave={saveProfile}
        />
      </Grid>
      <Flex gap="3" wrap="wrap">
        <ChangeUsernameDialog
          userId={info.userId}
          username={info.username}
          onChanged={onUsernameChanged}
        />
        <ChangePasswordDialog
          userId={info.userId}
          username={info.username}
          onChanged={() => toast.success("Password changed.")}
        />
        <ColumnsDialog
          columns={settings.enabledColumns}
          onToggle={(column, on) =>
            setSettings((old) => ({
              ...old,
              enabledColumns: { ...old.enabledColumns, [column]: on },
            }))}
          onSave={saveColumns}
        />
      </Flex>
      <AccessTokensCard />
    </Container>
  );
}
