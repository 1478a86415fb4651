/**
 * With JavaScript, a form whose answer is a redirect to another route waits, after the action, for
 * that route's script before it can ask for its data: one round trip more than without JavaScript
 * (issue 26). A page that knows where its form leads preloads that route's modules once it has
 * hydrated (after load, decision 046), so the next page needs only its data.
 */
import { useEffect } from "react";

interface ManifestRoute {
  module: string;
  imports?: string[];
}

declare global {
  interface Window {
    __remixManifest?: { routes: Record<string, ManifestRoute | undefined> };
  }
}

export function usePreloadRoute(routeId: string): void {
  useEffect(() => {
    const route = window.__remixManifest?.routes[routeId];
    if (!route) return;
    for (const href of [route.module, ...(route.imports ?? [])]) {
      if (document.head.querySelector(`link[rel="modulepreload"][href="${CSS.escape(href)}"]`)) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    }
  }, [routeId]);
}
