import { PlaceholderPage } from "../../components/placeholder_page.tsx";

/** Home: built by a later issue; the route, guard and menu entry exist already. */
export default function HomePage() {
  return <PlaceholderPage title="Home" />;
}
