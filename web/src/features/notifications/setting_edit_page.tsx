import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Edit Notification Setting: built by a later issue; the route, guard and menu entry exist already. */
export default function NotificationSettingEditPage() {
  return <PlaceholderPage title="Edit Notification Setting" />;
}
