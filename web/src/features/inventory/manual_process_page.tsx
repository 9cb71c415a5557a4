import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Manually Process File: built by a later issue; the route, guard and menu entry exist already. */
export default function ManualProcessPage() {
  return <PlaceholderPage title="Manually Process File" />;
}
