/**
 * The staff API's shared names (decision 148): Portico's extension of the contract for the hotel's
 * desk, `/api/desk/...`, documented in docs/api.md. A desk call carries the staff member's session
 * token in this header (never a member's Bearer token); the site keeps it in its own host-only cookie.
 */
export const DESK_SESSION_HEADER = "x-desk-session";

/** Where the desk lives on a hotel's domain; the booking's page is `${DESK_PATH}/bookings/<order_doc>`. */
export const DESK_PATH = "/desk";

export const deskBookingPath = (orderDoc: string): string => `${DESK_PATH}/bookings/${encodeURIComponent(orderDoc)}`;
