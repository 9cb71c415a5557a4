/**
 * The sources hub's cards reach its page through this context, provided by app.tsx from
 * `hubCardsFor` (features/index.ts): the page sits below the feature list, so it may not import it
 * (docs/web_decisions.md, "Web map"; tests/layers_test.ts finds import loops).
 */
import { createContext } from "react";
import type { Permissions } from "../state/session.ts";
import type { HubCard } from "./feature.ts";

/** The hub cards a user with these permissions sees; none until app.tsx provides the list. */
export const HubCardsContext = createContext<(permissions: Permissions) => HubCard[]>(() => []);
