import { Button, Flex, Grid, Text } from "@radix-ui/themes";
import { type FormEvent, useEffect, useState } from "react";
import {
  URL_FEED_LABELS,
  type UrlFeed,
  type UrlFeedCheckResult,
  urlFeedSave,
  type UrlFeedSaveInput,
  urlFeedWatchText,
} from "../../../shared/contract/url_feeds.ts";
import { ApiError, messageOr } from "../api/call.ts";
import { FormSection } from "./form_section.tsx";
import { SelectField } from "./form_fields.tsx";
import { TextField } from "./text_field.tsx";
import { OutcomeAlert } from "./outcome_alert.tsx";
import { longDateTime } from "./format_date.ts";

/** The calls the section makes, bound to one feed (the page's area passes them). */
export interface UrlFeedCalls {
  load(sourceId: number, signal: AbortSignal): Promise<UrlFeed>;
  save(sourceId: number, payload: UrlFeedSaveInput): Promise<UrlFeed>;
  check(sourceId: number): Promise<UrlFeedCheckResult>;
}

interface Values {
  url: string;
  everyMinutes: string;
  cron: string;
  authKind: "none" | "basic" | "header";
  username: string;
  headerName: string;
  secret: string;
}

const EMPTY: Values = {
  url: "",
  everyMinutes: "",
  cron: "",
  authKind: "none",
  username: "",
  headerName: "",
  secret: "",
};

const AUTH_OPTIONS = [
  { value: "none", label: "None" },
  { value: "basic", label: "Basic authentication (user name and password)" },
  { value: "header", label: "Token in a header" },
];

function toValues(feed: UrlFeed): Values {
  return {
    url: feed.url,
    everyMinutes: feed.everyMinutes === null ? "" : String(feed.everyMinutes),
    cron: feed.cron,
    authKind: feed.authKind,
    username: feed.username,
    headerName: feed.headerName,
    secret: feed.secret,
  };
}

const CHECK_TEXT: Record<UrlFeedCheckResult["outcome"], string> = {
  fetched: "A new file was fetched and processed.",
  "not-modified": "The file has not changed since the last look (not modified).",
  unchanged: "The file is the same as the last one taken; it was not processed again.",
  failed: "The look failed.",
};

/**
 * "URL Feed (optional)" of a source's edit page (docs/url_feeds.md): the URL, its schedule
 * (minutes or cron), its authentication, "Apply URL Feed", "Check Now", and how it is watched.
 * Its own form, saved by its own call, so the spec's form and its Save keep their behaviour;
 * shown once the source exists.
 */
export function UrlFeedSection(
  { sourceId, calls }: { sourceId: number; calls: UrlFeedCalls },
) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [feed, setFeed] = useState<UrlFeed | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!sourceId) return;
    const controller = new AbortController();
    calls.load(sourceId, controller.signal).then((loaded) => {
      setFeed(loaded);
      setValues(toValues(loaded));
    }, (error) => {
      if (!controller.signal.aborted) {
        setOutcome({ ok: false, text: messageOr(error, "Failed to load the URL feed") });
      }
    });
    return () => controller.abort();
  }, [sourceId, calls]);

  if (!sourceId) {
    return (
      <FormSection title="URL Feed (optional)">
        <Text as="p" size="2" color="gray">
          Save the source first; then a URL to pull its file from can be added here.
        </Text>
      </FormSection>
    );
  }

  const set = (name: keyof Values) => (event: { target: { value: string } }) =>
    setValues((old) => ({ ...old, [name]: event.target.value }));

  async function onSave(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    const parsed = urlFeedSave.safeParse(values);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "url");
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const saved = await calls.save(sourceId, values);
      setFeed(saved);
      setValues(toValues(saved));
      setOutcome({ ok: true, text: saved.url ? "URL feed saved." : "URL feed removed." });
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(Object.fromEntries(
          Object.entries(error.errors).map(([key, list]) => [key, list[0]]),
        ));
      }
      setOutcome({ ok: false, text: messageOr(error, "Saving the URL feed failed") });
    } finally {
      setBusy(false);
    }
  }

  async function onCheck() {
    setOutcome(null);
    setBusy(true);
    try {
      const result = await calls.check(sourceId);
      const text = result.error
        ? `${CHECK_TEXT[result.outcome]} ${result.error}`
        : CHECK_TEXT[result.outcome];
      setOutcome({ ok: result.outcome !== "failed", text });
      setFeed(await calls.load(sourceId, new AbortController().signal));
    } catch (error) {
      setOutcome({ ok: false, text: messageOr(error, "Checking the URL failed") });
    } finally {
      setBusy(false);
    }
  }

  const watchLine = feed ? urlFeedWatchText(feed, longDateTime) : null;
  return (
    <FormSection title="URL Feed (optional)">
      <form noValidate onSubmit={onSave} aria-label="URL feed">
        <Flex direction="column" gap="3">
          <TextField
            label={URL_FEED_LABELS.url}
            type="url"
            placeholder="https://supplier.example/stock.csv"
            value={values.url}
            onChange={set("url")}
            error={errors.url}
          />
          <Grid columns={{ initial: "1", sm: "2" }} gap="3">
            <TextField
              label={URL_FEED_LABELS.everyMinutes}
              inputMode="numeric"
              placeholder="15"
              value={values.everyMinutes}
              onChange={set("everyMinutes")}
              error={errors.everyMinutes}
            />
            <TextField
              label={URL_FEED_LABELS.cron}
              placeholder="0 6 * * 1-5"
              value={values.cron}
              onChange={set("cron")}
              error={errors.cron}
            />
            <SelectField
              label={URL_FEED_LABELS.authKind}
              value={values.authKind}
              onChange={(value) =>
                setValues((old) => ({ ...old, authKind: value as Values["authKind"] }))}
              options={AUTH_OPTIONS}
              error={errors.authKind}
            />
            {values.authKind === "basic" && (
              <TextField
                label={URL_FEED_LABELS.username}
                autoComplete="off"
                value={values.username}
                onChange={set("username")}
                error={errors.username}
              />
            )}
            {values.authKind === "header" && (
              <TextField
                label={URL_FEED_LABELS.headerName}
                placeholder="Authorization"
                autoComplete="off"
                value={values.headerName}
                onChange={set("headerName")}
                error={errors.headerName}
              />
            )}
            {values.authKind !== "none" && (
              <TextField
                label={URL_FEED_LABELS.secret}
                type="password"
                autoComplete="new-password"
                value={values.secret}
                onChange={set("secret")}
                error={errors.secret}
              />
            )}
          </Grid>
          {watchLine && <Text as="p" size="2">{watchLine}</Text>}
          <Text as="p" size="1" color="gray">
            Only https:// URLs. Give an interval in minutes or a cron schedule in UTC (minute hour
            day month weekday). A file that has not changed (ETag, Last-Modified, or the same bytes)
            is not processed again. The stored password or token shows as ********; leave it to keep
            it. Empty the URL and apply to stop fetching.
          </Text>
          {outcome && <OutcomeAlert ok={outcome.ok}>{outcome.text}</OutcomeAlert>}
          <Flex gap="3" justify="end" wrap="wrap">
            {feed?.url && (
              <Button type="button" variant="soft" disabled={busy} onClick={onCheck}>
                Check Now
              </Button>
            )}
            <Button type="submit" disabled={busy}>Apply URL Feed</Button>
          </Flex>
        </Flex>
      </form>
    </FormSection>
  );
}
