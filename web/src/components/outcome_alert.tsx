import { Callout } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { ErrorAlert } from "./error_alert.tsx";

/** A green message announced politely to screen readers (role="status"): a save or run that worked. */
export function SuccessAlert({ children }: { children: ReactNode }) {
  return (
    <Callout.Root color="green" role="status">
      <Callout.Text>{children}</Callout.Text>
    </Callout.Root>
  );
}

/** The outcome of an action: a {@link SuccessAlert} when `ok`, else an ErrorAlert. */
export function OutcomeAlert({ ok, children }: { ok?: boolean; children: ReactNode }) {
  return ok ? <SuccessAlert>{children}</SuccessAlert> : <ErrorAlert>{children}</ErrorAlert>;
}
