import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Notification Settings: built by a later issue; the route, guard and menu entry exist already. */
export default function NotificationSettingListPage() {
  return <PlaceholderPage title="Notification Settings" />;
}
