import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * With JavaScript a new page (another path: "Place booking" taking the guest to the pay page or
 * the confirmation) is shown without a reload, so neither the browser nor a screen reader treats
 * it as a page arriving. Scroll restoration (root) opens it at its top; this gives focus to its
 * heading, so that the next Tab starts at the top and a screen reader says where the guest is
 * (decision 066).
 *
 * Left alone: back and forward (scroll restoration puts the guest back where they were), a link to
 * an anchor (the browser scrolls there), and a new answer on the same page (a search, the cart, the
 * checkout's messages), where each page moves focus itself (decision 021).
 */
export function useFocusOnNewPage(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname === shownPath.current) return;
    shownPath.current = location.pathname;
    if (navigationType === "POP" || location.hash) return;
    const main = document.getElementById("main");
    const heading = main?.querySelector<HTMLElement>("h1") ?? main;
    if (!heading) return;
    // Focusable by script only: the heading is not a stop for Tab.
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }, [location.pathname, location.hash, navigationType]);
}
