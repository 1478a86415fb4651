/**
 * Only routes that need it hydrate (handle.hydrate); content pages ship no JavaScript at all.
 * The translations the page needs arrive with the HTML (root renders them), not in the bundle.
 */
import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig } from "~/i18n/config";
import { RESOURCES_ELEMENT_ID } from "~/i18n/hydration";

async function hydrate() {
  const element = document.getElementById(RESOURCES_ELEMENT_ID);
  const resources = element?.textContent ? JSON.parse(element.textContent) : {};
  const lng = document.documentElement.lang;
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng, resources: { [lng]: resources } });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
