import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Order Tracking Source: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderTrackingSourceEditPage() {
  return <PlaceholderPage title="Edit Order Tracking Source" />;
}
