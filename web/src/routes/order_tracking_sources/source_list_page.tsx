import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Order Tracking Sources: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderTrackingSourceListPage() {
  return <PlaceholderPage title="Order Tracking Sources" />;
}
