/**
 * HotelApi: the one typed client of the hotel API contract (spec §7). Routes get it from the load
 * context. By default it dispatches in-process to the built-in back end (no network hop); with
 * HOTEL_API_ORIGIN set it talks to an existing back end over HTTP. Every answer is validated.
 *
 * The calls live by capability in `client/` (decision 142): each file adds its calls to the shared
 * transport of `client/core.ts`, and this facade composes them, so a caller imports all it needs
 * from here. A new capability's calls go in a file of their own, added to the list below.
 */
import { ClientCore } from "./client/core";
import { withAccountCalls } from "./client/account";
import { withAddonCalls } from "./client/addons";
import { withCaptchaCalls } from "./client/captcha";
import { withContentCalls } from "./client/content";
import { withDeskBookingCalls } from "./client/desk-bookings";
import { withDeskStaffCalls } from "./client/desk-staff";
import { withDeskActionCalls } from "./client/desk-actions";
import { withDeskCalendarCalls } from "./client/desk-calendar";
import { withOrderCalls } from "./client/orders";
import { withPaymentCalls } from "./client/payments";
import { withPricingCalls } from "./client/pricing";
import { withRailCalls } from "./client/rail";
import { withRoomCalls } from "./client/rooms";
import { withStayCalendarCalls } from "./client/stay-calendar";

export { HotelApiError, type HotelApiOptions, type Transport } from "./client/core";
export { PriceCheckError, type LegacyPriceCheckInput, type OrderLineInput, type PriceCheckInput } from "./client/pricing";
export { ERROR_ORDER_DOC, type CreateOrderResult, type OrderPayload } from "./client/orders";

export class HotelApi extends withDeskCalendarCalls(
  withDeskBookingCalls(
    withDeskActionCalls(
      withDeskStaffCalls(
        withAddonCalls(
          withRailCalls(
            withPaymentCalls(
              withCaptchaCalls(
                withOrderCalls(withPricingCalls(withAccountCalls(withStayCalendarCalls(withRoomCalls(withContentCalls(ClientCore)))))),
              ),
            ),
          ),
        ),
      ),
    ),
  ),
) {}
