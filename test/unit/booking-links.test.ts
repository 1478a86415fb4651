import { describe, expect, it } from "vitest";
import { bookingTarget, externalBookingUrl, externalProviderFor } from "~/domain/booking-links";

const query = { start: "2030-05-01", end: "2030-05-03", adults: 2, children: 1, room: 1 };
const open = { booking_close: false, business_status: 0, official_booking: "" };

describe("booking links", () => {
  it("go to the internal booking page with start, end, adults, children and room", () => {
    expect(bookingTarget(open, "hxa", "en-US", query)).toEqual({
      kind: "internal",
      href: "/en-US/hxa/booking?start=2030-05-01&end=2030-05-03&adults=2&children=1&room=1",
    });
    expect(bookingTarget(open, "hxa", "zh-TW", query).href).toMatch(/^\/hxa\/booking\?/);
  });

  it("go to /{product}/maintain when booking is closed and there is no official link", () => {
    expect(bookingTarget({ ...open, booking_close: true }, "hxa", "ja-JP", query)).toEqual({
      kind: "maintain",
      href: "/ja-JP/hxa/maintain",
    });
  });

  it("go to the official link when booking is closed and one is set", () => {
    const target = bookingTarget(
      { ...open, booking_close: true, official_booking: "https://booking.owlting.com/demo" },
      "hxa",
      "en-US",
      query,
    );
    expect(target.kind).toBe("external");
  });

  it.each([
    ["https://booking.owlting.com/portico-inn", "owlting", "start=2030-05-01&end=2030-05-03&adult=2&child=1&infant=0&lang=zh_TW"],
    [
      "https://direct-book.com/properties/porticoinn",
      "siteminder",
      "checkInDate=2030-05-01&checkOutDate=2030-05-03&items%5B0%5D%5Badults%5D=2&items%5B0%5D%5Bchildren%5D=1&items%5B0%5D%5Binfants%5D=0&currency=TWD",
    ],
    ["https://be.synxis.com/?hotel=12345", "synxis", "hotel=12345&arrive=2030-05-01&depart=2030-05-03&adult=2&child=1&rooms=1"],
    ["https://hotels.cloudbeds.com/reservation/AbCdEf", "cloudbeds", "checkin=2030-05-01&checkout=2030-05-03&adults=2&kids=1"],
  ])("format %s for %s", (link, provider, expectedQuery) => {
    expect(externalProviderFor(link)?.id).toBe(provider);
    expect(new URL(externalBookingUrl(link, query)).search).toBe(`?${expectedQuery}`);
  });

  it("leave an unknown provider's link as it is, and do not match look-alike hosts", () => {
    expect(externalBookingUrl("https://book.example.com/x", query)).toBe("https://book.example.com/x");
    expect(externalProviderFor("https://owlting.com.evil.example/x")).toBeNull();
  });
});
