import { describe, expect, it } from "vitest";
import { LAYOUT_DESIGNS } from "~/layouts/designs";
import {
  BOOKING_LAYOUTS,
  PAGE_LAYOUTS,
  bookingLayoutFor,
  chooseLayouts,
  layoutFamily,
  pageLayoutForLoading,
  pageLayoutForLookup,
} from "~/layouts/templates";

describe("page layout choice (spec §2)", () => {
  it("knows the 13 page layouts and 2 booking layouts, each with a design", () => {
    expect(PAGE_LAYOUTS).toHaveLength(13);
    expect(BOOKING_LAYOUTS).toEqual(["booking_100", "booking_200"]);
    for (const layout of PAGE_LAYOUTS) expect(LAYOUT_DESIGNS[layout].id).toBe(layout);
    expect(new Set(PAGE_LAYOUTS.map((layout) => LAYOUT_DESIGNS[layout].name)).size).toBe(13);
  });

  it("loading: an empty or unknown code falls back to the layout_700 family", () => {
    expect(pageLayoutForLoading("layout_501")).toBe("layout_501");
    expect(pageLayoutForLoading("")).toBe("layout_700");
    expect(pageLayoutForLoading(null)).toBe("layout_700");
    expect(pageLayoutForLoading("layout_999")).toBe("layout_700");
    expect(layoutFamily(pageLayoutForLoading("nonsense"))).toBe("layout_700");
    expect(layoutFamily("layout_702")).toBe("layout_700");
  });

  it("template lookup: an empty code is layout_700, an unknown code maps to layout 300", () => {
    expect(pageLayoutForLookup("")).toBe("layout_700");
    expect(pageLayoutForLookup("layout_999")).toBe("layout_300");
    expect(pageLayoutForLookup("layout_1000")).toBe("layout_1000");
  });

  it("booking layout falls back to booking_100", () => {
    expect(bookingLayoutFor("booking_200")).toBe("booking_200");
    expect(bookingLayoutFor("booking_300")).toBe("booking_100");
  });

  it("?preview= overrides the page or the booking template", () => {
    const hotel = { template_code: "layout_100", template_booking_code: "booking_200" };
    expect(chooseLayouts(hotel, null)).toEqual({ page: "layout_100", booking: "booking_200", previewing: false });
    expect(chooseLayouts(hotel, "layout_800")).toEqual({ page: "layout_800", booking: "booking_200", previewing: true });
    expect(chooseLayouts(hotel, "booking_100")).toEqual({ page: "layout_100", booking: "booking_100", previewing: true });
    expect(chooseLayouts(hotel, "whatever")).toEqual({ page: "layout_300", booking: "booking_200", previewing: true });
  });
});
