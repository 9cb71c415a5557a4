import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Order Detail: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderDetailPage() {
  return <PlaceholderPage title="Order Detail" />;
}
