import { useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/**
 * With JavaScript a new page (another path: "Place booking" taking the guest to the pay page or
 * the confirmation) is shown without a reload, so neither the browser nor a screen reader treats
 * it as a page arriving. Scroll restoration (root) opens it at its top; this gives focus to its
 * heading, so that the next Tab starts at the top and a screen reader says where the guest is
 * (decision 066).
 *
 * Returns what the route announcer (root) says: the new page's title, after each client navigation
 * to another path.
 *
 * Left alone: back and forward (scroll restoration puts the guest back where they were), a link to
 * an anchor (the browser scrolls there), and a new answer on the same page (a search, the cart, the
 * checkout's messages), where each page moves focus itself (decision 021).
 */
export function useFocusOnNewPage(): string {
  const location = useLocation();
  const navigationType = useNavigationType();
  const shownPath = useRef(location.pathname);
  const [announcement, setAnnouncement] = useState("");
  useEffect(() => {
    if (location.pathname === shownPath.current) return;
    shownPath.current = location.pathname;
    // Every new page says its title, as a page load would have (back and forward too): the title
    // and the heading name the same thing (the pay page's say its state), so what is said and where
    // focus lands agree (issue 25 item 20, decision 082).
    setAnnouncement(document.title);
    if (navigationType === "POP" || location.hash) return;
    const main = document.getElementById("main");
    const heading = main?.querySelector<HTMLElement>("h1") ?? main;
    if (!heading) return;
    // Focusable by script only: the heading is not a stop for Tab.
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }, [location.pathname, location.hash, navigationType]);
  return announcement;
}
