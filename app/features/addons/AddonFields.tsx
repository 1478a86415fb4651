import { isPerPerson } from "~/domain/addons";
import { FieldError, type FieldErrors, type Values } from "~/features/checkout/fields";
import { formatPrice } from "~/i18n/format";
import { useTranslation } from "~/i18n/react";
import { useSite } from "~/ui/site-data";
import type { AddonOffer } from "./addons";

/**
 * The checkout's extras (issue 27): each item the chosen plans offer, how it is charged, and a count
 * (adults and children for items priced per person). Plain form fields: "Check the price" (or
 * placing the booking) prices what is chosen for this stay and party.
 */
export function AddonFields({ addons, values, fieldErrors }: { addons: AddonOffer[]; values: Values; fieldErrors: FieldErrors }) {
  const { t } = useTranslation();
  const site = useSite();
  const lang = site?.lang ?? "zh-TW";
  if (addons.length === 0) return null;
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
    <fieldset className="addons">
      <legend>{t("checkout.addons")}</legend>
      <p className="field__hint">{t("checkout.addons.intro")}</p>
      {addons.map((item) => {
        const name = `addon_${item.adds_id}`;
        const perPerson = isPerPerson(item.unit);
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
              · {t("checkout.addons.max", { max: item.max_per_booking })}
            </p>
            {item.description ? <p className="addon__description">{item.description}</p> : null}
            {perPerson ? (
              <>
                {count(name, t("checkout.addons.adults", { name: item.name }), item.max_per_booking)}
                {count(`${name}_children`, t("checkout.addons.children", { name: item.name }), item.max_per_booking)}
              </>
            ) : (
              count(name, t("checkout.addons.quantity", { name: item.name }), item.max_per_booking)
            )}
            <FieldError errors={fieldErrors} name={name} />
            <FieldError errors={fieldErrors} name={`${name}_children`} />
          </div>
        );
      })}
    </fieldset>
  );
}
