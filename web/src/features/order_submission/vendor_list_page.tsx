import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Order Submission Vendor Sources: built by a later issue; the route, guard and menu entry exist already. */
export default function VendorListPage() {
  return <PlaceholderPage title="Order Submission Vendor Sources" />;
}
