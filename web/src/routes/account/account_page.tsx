import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Account: built by a later issue; the route, guard and menu entry exist already. */
export default function AccountPage() {
  return <PlaceholderPage title="Account" />;
}
