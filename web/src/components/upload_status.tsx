/**
 * The banner of a save that uploads a file (a sample inventory file, a vendor template): the
 * percentage sent, then the server's answer (issue 24: "uploads of sample files and templates
 * show progress; banners follow the state"). The bytes go through apiUpload (api/http.ts), the
 * helper the manual run uses.
 */
import { Callout, Flex, Progress, Text } from "@radix-ui/themes";
import { ErrorAlert } from "./error_alert.tsx";
import { SuccessAlert } from "./outcome_alert.tsx";

/** Where a save with a file is: sending (with how much is sent), saved, or refused with why. */
export type UploadState =
  | { stage: "uploading"; percent: number }
  | { stage: "saved"; text: string }
  | { stage: "failed"; text: string };

/**
 * The whole percentage of an upload (0 until the size is known).
 *
 * @example
 * ```ts
 * import { uploadPercent } from "./upload_status.tsx";
 * console.assert(uploadPercent(512, 1024) === 50);
 * console.assert(uploadPercent(0, 0) === 0);
 * ```
 */
export function uploadPercent(sent: number, total: number): number {
  return total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;
}

/**
 * The banner of `state`: a status region with the percentage while the file is sent ("… saving"
 * once every byte is out and the server works), then a green or red message.
 */
export function UploadBanner({ state, what }: { state: UploadState; what: string }) {
  if (state.stage === "saved") return <SuccessAlert>{state.text}</SuccessAlert>;
  if (state.stage === "failed") return <ErrorAlert>{state.text}</ErrorAlert>;
  const sent = state.percent >= 100;
  return (
    <Callout.Root color="blue" role="status" aria-label="Upload progress">
      <Flex direction="column" gap="2" width="100%">
        <Text as="p" size="2">
          {sent ? `Uploaded the ${what}; saving…` : `Uploading the ${what}: ${state.percent}%`}
        </Text>
        <Progress value={state.percent} aria-label={`Uploading the ${what}`} />
      </Flex>
    </Callout.Root>
  );
}
