import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Admin: built by a later issue; the route, guard and menu entry exist already. */
export default function AdminPage() {
  return <PlaceholderPage title="Admin" />;
}
