import type { ReactNode } from "react";
import { isPerPerson } from "~/domain/addons";
import { FieldError, type FieldErrors, type Values } from "~/features/checkout/fields";
import { formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { useSite } from "~/ui/site-data";
import { addonField, addonFieldMax, type AddonGroup, type AddonOffer } from "./addons";

/**
 * The checkout's extras (issue 27): each item the chosen plans offer, how it is charged, and a count
 * (adults and children for items priced per person) — for the order, and, when the booking has
 * several room lines, the per-person items for each line whose plan offers them. Plain form fields: "Check the price" (or
 * placing the booking) prices what is chosen for this stay and party. A limited item says how many
 * are left for the stay, and its fields ask for no more (the server refuses more, naming it).
 */
export function AddonFields({ groups, values, fieldErrors }: { groups: AddonGroup[]; values: Values; fieldErrors: FieldErrors }) {
  const { t } = useTranslation();
  if (groups.length === 0) return null;
  const left = (item: AddonOffer) =>
    item.left === undefined || item.left === null ? null : (
      <p className="addon__stock">{item.left === 0 ? t("checkout.addons.sold_out") : t("checkout.addons.left", { count: item.left })}</p>
    );
  return (
    <fieldset className="addons">
      <legend>{t("checkout.addons")}</legend>
      <p className="field__hint">{t("checkout.addons.intro")}</p>
      {groups.map((group) =>
        group.room_index === null ? (
          <div
            key="order"
            className="addons__order"
            role="group"
            aria-label={groups.length > 1 ? t("checkout.addons.for_order") : undefined}
          >
            {groups.length > 1 ? (
              <p className="addons__line-name">
                <strong>{t("checkout.addons.for_order")}</strong>
              </p>
            ) : null}
            <AddonItems group={group} values={values} fieldErrors={fieldErrors} note={left} />
          </div>
        ) : (
          <div key={group.room_index} className="addons__line" role="group" aria-labelledby={`addons-line-${group.room_index}`}>
            <p className="addons__line-name" id={`addons-line-${group.room_index}`}>
              <strong>{t("checkout.addons.for_line", { line: group.label, number: group.room_index + 1 })}</strong>
            </p>
            <AddonItems group={group} values={values} fieldErrors={fieldErrors} note={left} />
          </div>
        ),
      )}
    </fieldset>
  );
}

/** The items of one group: each with its photo, how it is charged, an optional note (the order page's "already booked"), and its count fields. */
export function AddonItems({
  group,
  values,
  fieldErrors,
  note,
}: {
  group: AddonGroup;
  values: Values;
  fieldErrors: FieldErrors;
  note?: (item: AddonOffer) => ReactNode;
}) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  const count = (name: string, label: string, max: number) => (
    <label className="addon__count">
      {label}{" "}
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        step={1}
        name={name}
        id={name}
        defaultValue={values[name] ?? ""}
        placeholder="0"
        aria-invalid={fieldErrors[name] ? true : undefined}
        aria-describedby={fieldErrors[name] ? `${name}-error` : undefined}
      />
    </label>
  );
  return (
    <>
      {group.items.map((item: AddonOffer) => {
        const name = addonField(group, item);
        const perPerson = isPerPerson(item.unit);
        const max = addonFieldMax(item);
        return (
          <div key={item.adds_id} className="addon field">
            {item.photo ? <img src={item.photo} alt="" width={96} height={64} loading="lazy" className="addon__photo" /> : null}
            <p className="addon__name">
              <strong>{item.name}</strong>
            </p>
            <p className="addon__charge">
              {t(`checkout.addons.unit.${item.unit}`, {
                price: formatPrice(item.price, lang),
                child: formatPrice(item.child_price ?? item.price, lang),
              })}{" "}
              · {t(perPerson ? "checkout.addons.max.person" : "checkout.addons.max", { max: item.max_per_booking })}
            </p>
            {item.description ? <p className="addon__description">{item.description}</p> : null}
            {note?.(item)}
            {perPerson ? (
              <>
                {count(name, t("checkout.addons.adults", { name: item.name }), max)}
                {count(`${name}_children`, t("checkout.addons.children", { name: item.name }), max)}
              </>
            ) : (
              count(name, t("checkout.addons.quantity", { name: item.name }), max)
            )}
            <FieldError errors={fieldErrors} name={name} />
            <FieldError errors={fieldErrors} name={`${name}_children`} />
          </div>
        );
      })}
    </>
  );
}
