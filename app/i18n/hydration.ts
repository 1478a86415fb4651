import { createContext, useContext } from "react";

/**
 * The words a hydrating page carries, as JSON, and whether they are the whole catalogue (decision
 * 144: a page carries its own components' words). The server provides them (entry.server) and the
 * root renders them into the page; on the client they are read back from that element, so the
 * translation files never enter the JavaScript bundle.
 */
export type HydrationWords = { json: string; complete: boolean };

export const HydrationResources = createContext<HydrationWords | null>(null);

export const RESOURCES_ELEMENT_ID = "i18n-resources";

export function useHydrationResources(): HydrationWords {
  const fromServer = useContext(HydrationResources);
  if (fromServer !== null) return fromServer;
  const element = typeof document === "undefined" ? null : document.getElementById(RESOURCES_ELEMENT_ID);
  return { json: element?.textContent ?? "{}", complete: element?.dataset.complete === "true" };
}
