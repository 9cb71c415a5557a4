import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Manage Users: built by a later issue; the route, guard and menu entry exist already. */
export default function UsersPage() {
  return <PlaceholderPage title="Manage Users" />;
}
