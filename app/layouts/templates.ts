/**
 * Page and booking layouts (spec §2). A hotel picks one of 13 page layouts and 2 booking layouts
 * by template_code and template_booking_code; `?preview=` overrides both.
 */
export const PAGE_LAYOUTS = [
  "layout_100",
  "layout_200",
  "layout_300",
  "layout_400",
  "layout_500",
  "layout_501",
  "layout_600",
  "layout_700",
  "layout_701",
  "layout_702",
  "layout_800",
  "layout_900",
  "layout_1000",
] as const;
export type PageLayout = (typeof PAGE_LAYOUTS)[number];

export const BOOKING_LAYOUTS = ["booking_100", "booking_200"] as const;
export type BookingLayout = (typeof BOOKING_LAYOUTS)[number];

const isPageLayout = (code: string): code is PageLayout => (PAGE_LAYOUTS as readonly string[]).includes(code);
const isBookingLayout = (code: string): code is BookingLayout => (BOOKING_LAYOUTS as readonly string[]).includes(code);

/** The family a code belongs to: layout_701 and layout_702 are of the layout_700 family. */
export function layoutFamily(layout: PageLayout): string {
  return layout.replace(/^layout_(\d+)$/, (_, number: string) => `layout_${Math.floor(Number(number) / 100) * 100}`);
}

/**
 * Spec §2, first reading (loading the page): an empty or unknown code falls back to the
 * layout_700 family.
 */
export function pageLayoutForLoading(code: string | null | undefined): PageLayout {
  const clean = (code ?? "").trim();
  return isPageLayout(clean) ? clean : "layout_700";
}

/**
 * Spec §2, second reading (the template lookup): an empty code falls back to layout_700, but an
 * unknown code maps to layout_300. Used where a hotel's template is looked up by code, such as the
 * preview of a code that is not one of ours.
 */
export function pageLayoutForLookup(code: string | null | undefined): PageLayout {
  const clean = (code ?? "").trim();
  if (clean === "") return "layout_700";
  return isPageLayout(clean) ? clean : "layout_300";
}

export function bookingLayoutFor(code: string | null | undefined): BookingLayout {
  const clean = (code ?? "").trim();
  return isBookingLayout(clean) ? clean : "booking_100";
}

/**
 * The layouts a page renders with. `?preview=` names either a page or a booking layout and
 * overrides both codes: a page preview keeps the hotel's booking layout and the reverse.
 */
export function chooseLayouts(
  hotel: { template_code: string; template_booking_code: string },
  preview: string | null,
): { page: PageLayout; booking: BookingLayout; previewing: boolean } {
  const page = pageLayoutForLoading(hotel.template_code);
  const booking = bookingLayoutFor(hotel.template_booking_code);
  const wanted = (preview ?? "").trim();
  if (!wanted) return { page, booking, previewing: false };
  if (isBookingLayout(wanted)) return { page, booking: wanted, previewing: true };
  return { page: pageLayoutForLookup(wanted), booking, previewing: true };
}
