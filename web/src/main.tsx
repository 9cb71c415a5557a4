import { Theme } from "@radix-ui/themes";
import { Provider, useAtomValue } from "jotai";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";
import { App } from "./app.tsx";
import { store } from "./state/session.ts";
import { applyTheme, followSystemTheme, themeChoiceAtom } from "./state/theme.ts";

/** Toasts: one at a time, 5000 ms (part 1, section 2), in the chosen theme. */
function Toasts() {
  return <Toaster visibleToasts={1} duration={5000} theme={useAtomValue(themeChoiceAtom)} />;
}

// theme_init.js has already set the theme; this covers a page where it did not run.
applyTheme(store.get(themeChoiceAtom));
followSystemTheme(() => store.get(themeChoiceAtom));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <Provider store={store}>
      {/* appearance "inherit": the class on <html> decides light or dark. */}
      <Theme appearance="inherit" accentColor="indigo">
        <App />
        <Toasts />
      </Theme>
    </Provider>
  </StrictMode>,
);
