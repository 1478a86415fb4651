/**
 * The framework's route matching, as patched by `patches/@remix-run+router+*.patch` (decision 131):
 * a routes array's branches are flattened and ranked once, not on every match. Remix matches the
 * whole route table three times per request; a table that never changes need not be taken apart
 * each time. `npm install` applies the patch (postinstall); this fails if it was not applied.
 */
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

const table = (): AgnosticRouteObject[] => [
  {
    id: "lang",
    path: ":lang?",
    children: [
      { id: "home", index: true },
      { id: "booking", path: "booking" },
      { id: "room", path: "room/:id" },
      { id: "splat", path: "*" },
    ],
  },
];

const ids = (routes: AgnosticRouteObject[], path: string) => matchRoutes(routes, path)?.map((match) => match.route.id);

describe("route matching (patched: branches kept per routes array)", () => {
  it("matches as the framework does: static before dynamic, optional segments, the splat last", () => {
    const routes = table();
    expect(ids(routes, "/")).toEqual(["lang", "home"]);
    expect(ids(routes, "/en-US/booking")).toEqual(["lang", "booking"]);
    expect(ids(routes, "/booking")).toEqual(["lang", "booking"]);
    expect(ids(routes, "/room/12")).toEqual(["lang", "room"]);
    expect(matchRoutes(routes, "/en-US/room/12")?.[1]?.params).toEqual({ lang: "en-US", id: "12" });
    expect(ids(routes, "/en-US/nothing/here")).toEqual(["lang", "splat"]);
  });

  it("takes a routes array apart once: a route changed in place after its first match is matched as it was", () => {
    const routes = table();
    expect(ids(routes, "/en-US/booking")).toEqual(["lang", "booking"]);
    const booking = routes[0]?.children?.[1];
    if (booking) booking.path = "reserve";
    // Unpatched, the framework would flatten the table again and find "reserve".
    expect(ids(routes, "/en-US/reserve")).toEqual(["lang", "splat"]);
    // A new array is a new table.
    expect(ids([...routes], "/en-US/reserve")).toEqual(["lang", "booking"]);
  });
});
