import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit User: built by a later issue; the route, guard and menu entry exist already. */
export default function UserEditPage() {
  return <PlaceholderPage title="Edit User" />;
}
