import { createContext, useContext } from "react";

/**
 * The translations a hydrating page needs, as JSON. The server provides them (entry.server) and the
 * root renders them into the page; on the client they are read back from that element, so the
 * translation files never enter the JavaScript bundle.
 */
export const HydrationResources = createContext<string | null>(null);

export const RESOURCES_ELEMENT_ID = "i18n-resources";

export function useHydrationResources(): string {
  const fromServer = useContext(HydrationResources);
  if (fromServer !== null) return fromServer;
  return typeof document === "undefined" ? "{}" : (document.getElementById(RESOURCES_ELEMENT_ID)?.textContent ?? "{}");
}
