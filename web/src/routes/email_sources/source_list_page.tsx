import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Email Sources: built by a later issue; the route, guard and menu entry exist already. */
export default function EmailSourceListPage() {
  return <PlaceholderPage title="Email Sources" />;
}
