import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Card, Container, Flex, Grid, Heading, Switch, Text } from "@radix-ui/themes";
import { useState } from "react";
import { type Control, Controller, useForm } from "react-hook-form";
import { Link, useLocation, useParams } from "wouter";
import {
  NEW_USER_FORM,
  type UserForm,
  userFormSchema,
} from "../../../../shared/contract/accounts.ts";
import { fetchUser, saveUser, type UserAccount } from "./api.ts";
import { Loading } from "../../components/loading.tsx";
import { useResource } from "../../components/use_resource.ts";
import { TextField } from "../../components/text_field.tsx";
import { SAVE_BUTTON_TEXT, useSaveState } from "../../components/use_save_state.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";

/** The user form's save feedback lasts 2000 ms (spec part 1, section 4). */
export const USER_SAVE_RESET_MS = 2000;
const USERS_PATH = "/admin/manage/users";

type FlagName = Extract<
  keyof UserForm,
  | "isAdmin"
  | "inventoryUser"
  | "orderUser"
  | "submissionUser"
  | "sendNotificationsToEmail"
  | "activeStatus"
>;

const FLAGS: { name: FlagName; label: string }[] = [
  { name: "isAdmin", label: "Admin" },
  { name: "inventoryUser", label: "Inventory User" },
  { name: "orderUser", label: "Order User" },
  { name: "submissionUser", label: "Submission User" },
  { name: "sendNotificationsToEmail", label: "Send Notifications To Email" },
  { name: "activeStatus", label: "Active" },
];

function formOf(user: UserAccount): UserForm {
  return {
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    password: "",
    isAdmin: user.isAdmin,
    inventoryUser: user.inventoryUser,
    orderUser: user.orderUser,
    submissionUser: user.submissionUser,
    sendNotificationsToEmail: user.sendNotificationsToEmail,
    activeStatus: user.activeStatus,
  };
}

function FlagSwitch(
  { name, label, control }: { name: FlagName; label: string; control: Control<UserForm> },
) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Text as="label" size="2">
          <Flex gap="2" align="center">
            <Switch checked={field.value} onCheckedChange={field.onChange} />
            {label}
          </Flex>
        </Text>
      )}
    />
  );
}

/** /admin/manage/users/edit/{userId}: userId 0 creates a user, anything else edits one. */
export default function UserEditPage() {
  const params = useParams<{ userId: string }>();
  const [, navigate] = useLocation();
  // After a create, later saves edit the user just made instead of creating another.
  const [userId, setUserId] = useState(() => Number(params.userId) || 0);
  // The user the page opened with; a save that creates one changes userId but loads nothing.
  const [openedId] = useState(userId);
  const [saveFailure, setSaveFailure] = useState<string | null>(null);
  const [savedOnce, setSavedOnce] = useState(false);
  const { state, run } = useSaveState(USER_SAVE_RESET_MS);
  const { register, handleSubmit, control, reset, formState } = useForm<UserForm>({
    resolver: zodResolver(userFormSchema),
    defaultValues: NEW_USER_FORM,
  });
  const { errors } = formState;

  const loaded = useResource(openedId === 0 ? null : ["user", openedId], async (signal) => {
    try {
      const user = await fetchUser(openedId, signal);
      reset(formOf(user));
      return user;
    } catch (error) {
      if (!signal.aborted) console.error("Error fetching data", error);
      throw error;
    }
  });
  const loading = loaded.loading;
  const loadFailure = loaded.error
    ? loaded.error instanceof Error ? loaded.error.message : "Loading failed."
    : null;

  const onSubmit = async (values: UserForm) => {
    setSaveFailure(null);
    const ok = await run(async () => {
      try {
        const saved = await saveUser({ ...values, userId });
        // The address names the user just made, so a reload edits it instead of creating again.
        if (userId === 0) navigate(`${USERS_PATH}/edit/${saved.userId}`, { replace: true });
        setUserId(saved.userId);
        reset(formOf(saved));
      } catch (error) {
        console.error("Save failed", error);
        setSaveFailure(error instanceof Error ? error.message : "Saving failed.");
        throw error;
      }
    });
    if (ok) setSavedOnce(true);
  };

  const creating = userId === 0;
  return (
    <Container size="3" p="4">
      <Flex mb="3">
        <Button asChild variant="ghost">
          <Link href={USERS_PATH}>Back to Users</Link>
        </Button>
      </Flex>
      <Heading as="h1" mb="4">{creating ? "Create New User" : "Edit User"}</Heading>
      {loading
        ? <Loading label="Loading user" />
        : loadFailure
        ? <ErrorAlert>{loadFailure}</ErrorAlert>
        : (
          <Card size="3">
            <form noValidate onSubmit={handleSubmit(onSubmit)}>
              <Flex direction="column" gap="4">
                {saveFailure && <ErrorAlert>{saveFailure}</ErrorAlert>}
                <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                  <TextField
                    label="Username"
                    autoComplete="off"
                    error={errors.username?.message}
                    {...register("username")}
                  />
                  <TextField
                    label="Email"
                    type="email"
                    autoComplete="off"
                    error={errors.email?.message}
                    {...register("email")}
                  />
                  <TextField label="First Name" autoComplete="off" {...register("firstName")} />
                  <TextField label="Last Name" autoComplete="off" {...register("lastName")} />
                  <Flex direction="column" gap="1">
                    <TextField
                      label="Password"
                      type="password"
                      autoComplete="new-password"
                      error={errors.password?.message}
                      {...register("password")}
                    />
                    <Text size="1" color="gray">
                      {creating
                        ? "Leave blank to let the user set their own password (Forgot Password)."
                        : "Leave blank to keep the current password."}
                    </Text>
                  </Flex>
                </Grid>
                <Grid columns={{ initial: "1", sm: "2", md: "3" }} gap="3">
                  {FLAGS.map((flag) => <FlagSwitch key={flag.name} {...flag} control={control} />)}
                </Grid>
                <Flex gap="3" justify="end">
                  {savedOnce && (
                    <Button
                      type="button"
                      variant="soft"
                      onClick={() => navigate(USERS_PATH)}
                    >
                      Back
                    </Button>
                  )}
                  <Button
                    type="submit"
                    disabled={state === "saving"}
                    color={state === "error" ? "red" : undefined}
                  >
                    {SAVE_BUTTON_TEXT[state]}
                  </Button>
                </Flex>
              </Flex>
            </form>
          </Card>
        )}
    </Container>
  );
}
