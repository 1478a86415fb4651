/**
 * The groups of a room's facilities (spec §3), in the order the room page lists them: the keys of
 * `RoomClass.facilities` in the API contract, and of `facilities` in the hotel file.
 */
export const FACILITY_GROUPS = [
  "window",
  "balcony",
  "smoking",
  "bathroom",
  "bathroom_devices",
  "recreation",
  "catering",
  "clothing",
  "safety",
] as const;

export type FacilityGroup = (typeof FACILITY_GROUPS)[number];
