import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Order Submission Sources: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderSubmissionSourceListPage() {
  return <PlaceholderPage title="Order Submission Sources" />;
}
