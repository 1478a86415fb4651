import { useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useMemo, type FormEvent } from "react";
import { lodgingUnit, unitKey } from "~/domain/units";
import { useSite } from "~/ui/site-data";
import { formatDate, formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import type { BookingData, BookingPlan } from "./types";

/** The most rooms one plan's "Add" offers at once. */
export const MAX_ADD_COUNT = 10;

/** The class of every plan's "Add" form: the page's one submit handler sends those, and only those. */
const ADD_FORM_CLASS = "add-form";

/**
 * What every plan's "Add" form shares, worked out once for the page: where the forms post, the
 * count menu's words (its label and "1 room" … "10 rooms" in the page's language and the hotel's
 * unit), and which plan is being added while a submission is under way.
 */
export interface AddForms {
  action: string;
  label: string;
  options: readonly string[];
  adding: { roomId: string; planId: string } | null;
  /** With JavaScript: submits an "Add" form as Remix's <Form> would (put on an element around the forms). */
  onSubmit: (event: FormEvent<HTMLElement>) => void;
}

/**
 * The page's "Add" forms. Each is a plain <form> (it works without JavaScript), and one submit
 * handler around them all sends them through Remix with JavaScript: the same request and pending
 * state as a <Form> each, without a <Form>'s hooks run for every plan of the page (decision 130).
 */
export function useAddForms(): AddForms {
  const { t } = useTranslation();
  const unit = lodgingUnit(useSite()?.hotel.kind);
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const words = useMemo(
    () => ({
      label: t(unitKey("cart.count", unit)),
      options: Array.from({ length: MAX_ADD_COUNT }, (_, index) => t(unitKey("cart.rooms", unit), { count: index + 1 })),
    }),
    [t, unit],
  );
  const pending = navigation.state !== "idle" ? navigation.formData : undefined;
  const roomId = pending?.get("room_class_id");
  const planId = pending?.get("proposal_id");
  return {
    action: `${location.pathname}${location.search}`,
    ...words,
    adding: typeof roomId === "string" && typeof planId === "string" ? { roomId, planId } : null,
    onSubmit: (event) => {
      const form = event.target;
      if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.classList.contains(ADD_FORM_CLASS)) return;
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | HTMLInputElement | null;
      submit(submitter ?? form, { method: "post", action: form.getAttribute("action") ?? undefined, preventScrollReset: true });
    },
  };
}

/** "Add" for one plan: how many rooms, posted to the cart. */
function AddForm({ data, roomId, plan, forms }: { data: BookingData; roomId: number; plan: BookingPlan; forms: AddForms }) {
  const { t } = useTranslation();
  const disabled =
    plan.inventory <= 0 || (plan.support_entire_rent ? data.cart.flags.disableEntireRent : data.cart.flags.disableNormalPlans);
  const busy = forms.adding?.roomId === String(roomId) && forms.adding.planId === String(plan.proposal_id);
  const max = Math.max(1, Math.min(plan.inventory, MAX_ADD_COUNT));
  // A whole-site plan already in the booking says so, not that it must be booked alone (issue 37 item 17e).
  const inBooking = data.cart.lines.some((line) => line.room_class_id === roomId && line.proposal_id === plan.proposal_id);
  const reason =
    disabled && plan.inventory > 0
      ? t(plan.support_entire_rent ? (inBooking ? "cart.entire_rent_in_booking" : "cart.entire_rent_disabled") : "cart.normal_disabled")
      : null;
  const reasonId = `add-reason-${roomId}-${plan.proposal_id}`;
  // The count starts at the rooms searched for. React sets an uncontrolled select's defaultValue only
  // when it is created, so a search made in the page (JavaScript on) would leave the count of the
  // search before, and the guest would book fewer rooms than searched for (issue 37 item 7). Keyed by
  // that default, the select is made anew when it changes; a count the guest chose stays otherwise.
  const count = String(Math.min(data.search.room, max));
  return (
    <form method="post" action={forms.action} className={ADD_FORM_CLASS}>
      <input type="hidden" name="csrf" value={data.csrf} />
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="room_class_id" value={roomId} />
      <input type="hidden" name="proposal_id" value={plan.proposal_id} />
      {/* Why the plan cannot be added: a line of its own above the controls, which keep their size (issue 25 item 1). */}
      {reason ? (
        <p className="add-form__note" id={reasonId}>
          {reason}
        </p>
      ) : null}
      <label className="add-form__count">
        <span className="visually-hidden">{forms.label}</span>
        <select key={count} name="num" defaultValue={count} disabled={disabled} aria-describedby={reason ? reasonId : undefined}>
          {forms.options.slice(0, max).map((label, index) => (
            <option key={index} value={index + 1}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className="button"
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        aria-describedby={reason ? reasonId : undefined}
      >
        {busy ? t("loading") : t("cart.add")}
      </button>
    </form>
  );
}

/** One rate plan of a room: what it includes, its terms, what is left and its price for the stay. */
export function PlanItem({
  data,
  roomId,
  roomName,
  plan,
  forms,
}: {
  data: BookingData;
  roomId: number;
  /** Set when the plan is listed apart from its room (the complementary list): the heading then names the room too. */
  roomName?: string;
  plan: BookingPlan;
  /** What the page's "Add" forms share (useAddForms). */
  forms: AddForms;
}) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const unit = lodgingUnit(site?.hotel.kind);
  return (
    <li className="plan" id={`plan-${roomId}-${plan.proposal_id}`}>
      <div className="plan__info">
        {roomName ? (
          <h3 className="plan__name">{t("booking.complementary_plan", { room: roomName, plan: plan.proposal_name })}</h3>
        ) : (
          <h4 className="plan__name">{plan.proposal_name}</h4>
        )}
        {plan.details.length > 0 ? (
          <ul className="plan__details">
            {plan.details.map((line) => (
              <li key={line.name}>
                {line.name} × {line.number} {line.unit}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="plan__meta">
          {plan.contain_meals ? t("room.meals_included") : t(unitKey("room.room_only", unit))}
          {plan.free_cancel_before_date
            ? ` · ${t("room.free_cancel_until", { date: formatDate(plan.free_cancel_before_date, lang) })}`
            : ""}
          {plan.refund_template_id === 0 ? ` · ${t("room.hotel_cancel_policy")}` : ""}
          {plan.support_entire_rent ? (
            <>
              {" · "}
              <span className="keep-together">{t("booking.entire_rent")}</span>
            </>
          ) : (
            ""
          )}
          {plan.members_only ? ` · ${t("booking.members_only")}` : ""}
        </p>
        <p className={plan.inventory > 0 && plan.inventory <= 3 ? "plan__stock plan__stock--low" : "plan__stock"}>
          {plan.inventory > 0 ? t(unitKey("booking.rooms_left", unit), { count: plan.inventory }) : t("booking.sold_out")}
        </p>
      </div>
      <div className="plan__buy">
        {data.signedIn && plan.allow_member_price && plan.member_price !== null ? (
          // A signed-in member pays the member price (spec §5): it is the price, the usual one is struck through.
          <p className="plan__price plan__price--member">
            <s className="plan__was">{formatPrice(plan.price, lang)}</s> {formatPrice(plan.member_price, lang)}
            <span className="plan__nights">{t(unitKey("booking.for_stay", unit))}</span>
            <span className="plan__member">{t("booking.your_member_price")}</span>
          </p>
        ) : (
          <p className="plan__price">
            {formatPrice(plan.price, lang)}
            <span className="plan__nights">{t(unitKey("booking.for_stay", unit))}</span>
            {plan.member_price !== null ? (
              <span className="plan__member">{t("room.member_price", { price: formatPrice(plan.member_price, lang) })}</span>
            ) : null}
          </p>
        )}
        <AddForm data={data} roomId={roomId} plan={plan} forms={forms} />
      </div>
    </li>
  );
}
