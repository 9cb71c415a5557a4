import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Email Source: built by a later issue; the route, guard and menu entry exist already. */
export default function EmailSourceEditPage() {
  return <PlaceholderPage title="Edit Email Source" />;
}
