import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Inventory Sources: built by a later issue; the route, guard and menu entry exist already. */
export default function InventorySourceListPage() {
  return <PlaceholderPage title="Inventory Sources" />;
}
