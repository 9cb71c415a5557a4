import { Callout } from "@radix-ui/themes";
import type { ReactNode } from "react";

/** A red message announced to screen readers as soon as it appears (role="alert"). */
export function ErrorAlert({ children }: { children: ReactNode }) {
  return (
    <Callout.Root color="red" role="alert">
      <Callout.Text>{children}</Callout.Text>
    </Callout.Root>
  );
}
