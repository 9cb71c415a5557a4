import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Inventory Source: built by a later issue; the route, guard and menu entry exist already. */
export default function InventorySourceEditPage() {
  return <PlaceholderPage title="Edit Inventory Source" />;
}
