import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Order Submission Source: built by a later issue; the route, guard and menu entry exist already. */
export default function OrderSubmissionSourceEditPage() {
  return <PlaceholderPage title="Edit Order Submission Source" />;
}
