import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Container, Flex, Grid, Heading, Switch, Text } from "@radix-ui/themes";
import { useState } from "react";
import { type Control, Controller, useForm } from "react-hook-form";
import { Link, useParams } from "wouter";
import {
  type EmailSourceForm,
  emailSourceForm,
  NEW_EMAIL_SOURCE_FORM,
} from "../../../../shared/contract/email_sources.ts";
import { type EmailSource, fetchEmailSource, saveEmailSource } from "./api.ts";
import { watchText } from "./watch_text.ts";
import { longDateTime } from "../../components/format_date.ts";
import { ApiError } from "../../api/call.ts";
import { ErrorAlert } from "../../components/error_alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { useCreatedRoute } from "../../components/use_created_route.ts";
import { useResource } from "../../components/use_resource.ts";
import { TextField } from "../../components/text_field.tsx";
import { FormSection } from "../../components/form_section.tsx";
import { SAVE_BUTTON_TEXT, useSaveState } from "../../components/use_save_state.ts";

/** The e-mail source form's save feedback lasts 2000 ms (spec part 2, section 4). */
export const EMAIL_SOURCE_SAVE_RESET_MS = 2000;
export const SAVE_FAILED = "Save failed - please try again";
const LIST_PATH = "/email-sources";

function formOf(source: EmailSource): EmailSourceForm {
  return {
    username: source.username,
    email: source.email,
    password: source.password,
    incomingServer: source.incomingServer,
    incomingPort: source.incomingPort === null ? "" : String(source.incomingPort),
    outgoingServer: source.outgoingServer,
    outgoingPort: source.outgoingPort === null ? "" : String(source.outgoingPort),
    ssl: source.ssl,
    isMsal: source.isMsal,
    msalClientId: source.msalClientId,
    msalTennentId: source.msalTennentId,
  };
}

const portOf = (text: string) => (text.trim() ? Number(text.trim()) : null);

function SwitchField(
  { name, label, control }: {
    name: "ssl" | "isMsal";
    label: string;
    control: Control<EmailSourceForm>;
  },
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

/** The text of a failed save: the response's message (or body text), else the spec's default. */
function failureText(error: unknown): string {
  if (!(error instanceof ApiError) || error.isNetworkFailure) return SAVE_FAILED;
  return error.serverMessage ?? (error.text.trim() || SAVE_FAILED);
}

/** /email-sources/edit/{sourceId}: 0 creates a source, anything else edits one. */
export default function EmailSourceEditPage() {
  const params = useParams<{ sourceId: string }>();
  // After a create, later saves edit the source just made.
  const [sourceId, setSourceId] = useState(() => Number(params.sourceId) || 0);
  const [creating] = useState(sourceId === 0);
  const [saveFailure, setSaveFailure] = useState<string | null>(null);
  const [savedOnce, setSavedOnce] = useState(false);
  const { state, run } = useSaveState(EMAIL_SOURCE_SAVE_RESET_MS);
  const { register, handleSubmit, control, reset, watch, formState } = useForm<EmailSourceForm>({
    resolver: zodResolver(emailSourceForm),
    defaultValues: NEW_EMAIL_SOURCE_FORM,
  });
  const { errors } = formState;
  const isMsal = watch("isMsal");

  const [openedId] = useState(sourceId);
  const [watching, setWatching] = useState<string | null>(null);
  const { showCreated } = useCreatedRoute(params.sourceId, (id) => `/email-sources/edit/${id}`);
  const { loading } = useResource(
    openedId === 0 ? null : ["email-source", openedId],
    async (signal) => {
      try {
        const source = await fetchEmailSource(openedId, signal);
        reset(formOf(source));
        const how = watchText(source);
        const last = source.watch?.lastCheckAt;
        setWatching(how && `${how}, last check ${last ? longDateTime(last) : "never"}`);
      } catch (error) {
        // Load failures are only logged (spec part 2, section 8).
        if (!signal.aborted) console.error("Error fetching email source", error);
      }
    },
  );

  const onSubmit = async (values: EmailSourceForm) => {
    setSaveFailure(null);
    const ok = await run(async () => {
      let saved;
      try {
        saved = await saveEmailSource({
          ...values,
          id: sourceId,
          incomingPort: portOf(values.incomingPort),
          outgoingPort: portOf(values.outgoingPort),
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.isNetworkFailure) {
          console.error("Save failed", error);
        }
        setSaveFailure(failureText(error));
        throw error;
      }
      if (saved?.id) {
        setSourceId(saved.id);
        showCreated(saved.id);
        reset(formOf(saved));
      }
    });
    if (ok) setSavedOnce(true);
  };

  const backButton = (
    <Button asChild variant="ghost">
      <Link href={LIST_PATH}>Back to Email Sources</Link>
    </Button>
  );
  return (
    <Container size="3" p="4">
      <Flex mb="3">{backButton}</Flex>
      <Heading as="h1" mb="4">{creating ? "Create Email Source" : "Edit Email Source"}</Heading>
      {!creating && watching && <Text as="p" size="2" mb="3">{watching}</Text>}
      {loading
        ? <Loading label="Loading email source" />
        : (
          <form noValidate onSubmit={handleSubmit(onSubmit)}>
            <Flex direction="column" gap="4">
              {saveFailure && <ErrorAlert>{saveFailure}</ErrorAlert>}
              <FormSection title="Account Information" size="3">
                <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                  <TextField
                    label="Username"
                    autoComplete="off"
                    error={errors.username?.message}
                    {...register("username")}
                  />
                  <TextField
                    label="Email Address"
                    type="email"
                    autoComplete="off"
                    error={errors.email?.message}
                    {...register("email")}
                  />
                  <SwitchField
                    name="isMsal"
                    label="MSAL Account (use Microsoft authentication)"
                    control={control}
                  />
                  <TextField
                    label={isMsal ? "Client Secret" : "Password"}
                    type="password"
                    autoComplete="new-password"
                    error={errors.password?.message}
                    {...register("password")}
                  />
                </Grid>
              </FormSection>
              <FormSection title="Server Configuration" size="3">
                <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                  <TextField label="Incoming Server" {...register("incomingServer")} />
                  <TextField
                    label="Incoming Port"
                    inputMode="numeric"
                    placeholder="993"
                    error={errors.incomingPort?.message}
                    {...register("incomingPort")}
                  />
                  <TextField label="Outgoing Server" {...register("outgoingServer")} />
                  <TextField
                    label="Outgoing Port"
                    inputMode="numeric"
                    placeholder="587"
                    error={errors.outgoingPort?.message}
                    {...register("outgoingPort")}
                  />
                  <SwitchField name="ssl" label="Use SSL" control={control} />
                </Grid>
              </FormSection>
              {isMsal && (
                <FormSection
                  title="Microsoft Authentication"
                  size="3"
                  description="Azure AD registration details"
                >
                  <Grid columns={{ initial: "1", sm: "2" }} gap="3">
                    <TextField label="Client ID" {...register("msalClientId")} />
                    <TextField label="Tenant ID" {...register("msalTennentId")} />
                  </Grid>
                </FormSection>
              )}
              <Flex gap="3" justify="end">
                {savedOnce && backButton}
                <Button type="submit" disabled={state === "saving"}>
                  {SAVE_BUTTON_TEXT[state]}
                </Button>
              </Flex>
            </Flex>
          </form>
        )}
    </Container>
  );
}
