import { Callout, Flex } from "@radix-ui/themes";
import { useAtomValue } from "jotai";
import { useResource } from "../../components/use_resource.ts";
import { currentUserAtom, permissionsOf } from "../../state/session.ts";
import { fetchConfigWarnings } from "./api.ts";

/**
 * The server's configuration warnings (e.g. `PUBLIC_URL` unset: mails carry no links), for an
 * admin only; nothing for other users, nothing when the configuration is complete.
 */
export function ConfigWarnings() {
  const { isAdmin } = permissionsOf(useAtomValue(currentUserAtom));
  const { data } = useResource(isAdmin ? ["config-warnings"] : null, fetchConfigWarnings);
  if (!isAdmin || !data || data.warnings.length === 0) return null;
  return (
    <Flex direction="column" gap="2" mb="4">
      {data.warnings.map((warning) => (
        <Callout.Root
          key={warning}
          color="amber"
          highContrast
          role="status"
          aria-label="Configuration warning"
        >
          <Callout.Text>{warning}</Callout.Text>
        </Callout.Root>
      ))}
    </Flex>
  );
}
