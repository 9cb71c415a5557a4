import { useRef } from "react";
import { useLocation } from "wouter";

/**
 * An edit page's route id after a create (issue 24): `showCreated(id)` puts the new record's
 * /…/edit/<id> in the address, replacing the /…/edit/0 entry, so a reload or a shared link opens
 * the saved record instead of an empty form. `loadId` is the id the page loads: the route's,
 * except 0 for the record this page just created, whose values the form holds already (a reload
 * there would swap the form and its save state under the person's hands).
 */
export function useCreatedRoute(param: string | undefined, editPath: (id: number) => string) {
  const [, navigate] = useLocation();
  const routeId = Number(param) || 0;
  // A ref, set before the address changes, so no render sees the new id as one to load.
  const created = useRef<number | null>(null);
  const showCreated = (id: number) => {
    if (routeId !== 0 || created.current !== null || !id) return;
    created.current = id;
    navigate(editPath(id), { replace: true });
  };
  return { loadId: routeId === created.current ? 0 : routeId, showCreated } as const;
}
