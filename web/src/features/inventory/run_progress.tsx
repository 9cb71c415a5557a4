import { Callout, Flex, Progress, Text } from "@radix-ui/themes";
import { useEffect, useState } from "react";

/** Where a manual run is: sending the file (with how much is sent), or the server's work. */
export type RunProgress =
  | { stage: "uploading"; percent: number }
  | { stage: "processing"; since: number };

/** The stages a person sees, in order (issue 24: "uploading, reading, applying rules, writing"). */
export const RUN_STAGES = [
  "Uploading the file",
  "Reading the file, applying the rules and writing the result",
] as const;

/** The seconds since `since`, ticking once a second. */
function useSeconds(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return Math.max(0, Math.floor((now - since) / 1000));
}

function ProcessingLine({ since }: { since: number }) {
  const seconds = useSeconds(since);
  return (
    <Text as="p" size="2">
      {RUN_STAGES[1]} on the server… {seconds > 0 ? `${seconds} s so far.` : ""}
    </Text>
  );
}

/**
 * The manual run's progress panel: the upload with its percentage, then the server's work with
 * the time it has taken so far (the server answers once, at the end, so that stage cannot be
 * split further without guessing). A status region, so screen readers hear each stage.
 */
export function RunProgressPanel({ progress }: { progress: RunProgress }) {
  const uploading = progress.stage === "uploading";
  return (
    <Callout.Root color="blue" role="status" aria-label="Processing progress">
      <Flex direction="column" gap="2" width="100%">
        <Text as="p" size="2" weight="bold">
          Step {uploading ? 1 : 2} of {RUN_STAGES.length}
        </Text>
        {uploading
          ? (
            <>
              <Text as="p" size="2">{RUN_STAGES[0]}: {progress.percent}%</Text>
              <Progress value={progress.percent} aria-label="Upload progress" />
            </>
          )
          : (
            <>
              <ProcessingLine since={progress.since} />
              <Progress duration="8s" aria-label="Processing on the server" />
            </>
          )}
      </Flex>
    </Callout.Root>
  );
}
