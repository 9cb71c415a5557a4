import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Order Vendor Source: built by a later issue; the route, guard and menu entry exist already. */
export default function VendorEditPage() {
  return <PlaceholderPage title="Edit Order Vendor Source" />;
}
