/**
 * Only routes that need it hydrate (handle.hydrate); content pages ship no JavaScript at all.
 * The words the page needs arrive with the HTML (root renders them), not in the bundle; the rest
 * of the catalogue before the first client navigation to another page (decision 144).
 * Input before hydration is the browser's alone (see hydration-guard.ts).
 */
import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { holdInputUntilHydrated } from "~/ui/hydration-guard";
import { RESOURCES_ELEMENT_ID } from "~/i18n/hydration";
import { TranslationProvider } from "~/i18n/react";
import { keepPageWords } from "~/i18n/client-words";

function hydrate() {
  const element = document.getElementById(RESOURCES_ELEMENT_ID);
  const messages = keepPageWords(element?.textContent ? JSON.parse(element.textContent) : {}, element?.dataset.complete === "true");
  const lang = document.documentElement.lang;
  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationProvider lang={lang} messages={messages}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </TranslationProvider>,
    );
  });
}

holdInputUntilHydrated();
hydrate();
