/**
 * schema.org structured data of the content pages, whose values match what the page shows (the
 * page renders it with `jsonLdText`, app/ui/seo.ts). Server only: hotel text becomes plain text
 * through the HTML decoder, which the hydrating pages' JavaScript does not need to carry.
 */
import type { HotelInfo, RoomClass } from "~/contract/schemas";
import { htmlToText } from "~/lib/sanitize";
import { lodgingType } from "~/ui/seo";

const absolute = (origin: string, path: string) => (path.startsWith("http") ? path : `${origin}${path}`);

/** The hotel as a LodgingBusiness of the type its kind names. */
export function hotelJsonLd(hotel: HotelInfo, origin: string, url: string) {
  return {
    "@context": "https://schema.org",
    "@type": lodgingType(hotel.kind),
    "@id": `${origin}/#hotel`,
    name: hotel.hotel_name,
    url,
    description: htmlToText(hotel.seo_content || hotel.introduction),
    telephone: hotel.phone,
    email: hotel.email,
    address: { "@type": "PostalAddress", streetAddress: hotel.address },
    ...(hotel.coordinates ? { geo: { "@type": "GeoCoordinates", latitude: hotel.coordinates.lat, longitude: hotel.coordinates.lng } } : {}),
    checkinTime: hotel.checkin_start_time,
    checkoutTime: hotel.checkout_time,
    image: [...hotel.banner_images, ...hotel.about_images].map((image) => absolute(origin, image.src)),
    amenityFeature: hotel.support_facilities.map((name) => ({ "@type": "LocationFeatureSpecification", name, value: true })),
    currenciesAccepted: "TWD",
    sameAs: [hotel.fb, hotel.instagram, hotel.line].filter((link) => /^https:\/\//.test(link)),
  };
}

/** A room class as a HotelRoom, with an Offer at the price the page shows. */
export function roomJsonLd(room: RoomClass, origin: string, url: string, price: number | null) {
  return {
    "@context": "https://schema.org",
    "@type": "HotelRoom",
    name: room.room_class_name,
    url,
    description: htmlToText(room.introduction),
    image: room.photos.map((photo) => absolute(origin, photo.src)),
    ...(room.description.square_meters
      ? { floorSize: { "@type": "QuantitativeValue", value: room.description.square_meters, unitCode: "MTK" } }
      : {}),
    bed: room.description.bed.map((bed) => ({ "@type": "BedDetails", typeOfBed: bed.bed, numberOfBeds: bed.count })),
    occupancy: { "@type": "QuantitativeValue", maxValue: room.people + room.children },
    containedInPlace: { "@id": `${origin}/#hotel` },
    ...(price !== null
      ? { offers: { "@type": "Offer", price, priceCurrency: "TWD", availability: "https://schema.org/InStock", url } }
      : {}),
  };
}
