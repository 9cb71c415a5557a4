import { Flex, Spinner, VisuallyHidden } from "@radix-ui/themes";

/** A centred spinner announced to screen readers as a status. */
export function Loading({ label = "Loading" }: { label?: string }) {
  return (
    <Flex role="status" justify="center" align="center" p="6" style={{ minHeight: "40vh" }}>
      <Spinner size="3" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Flex>
  );
}
