import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Order Tracking: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderListPage() {
  return <PlaceholderPage title="Order Tracking" />;
}
