import { Fragment } from "react";

/** A phone number as written, dialled by its digits (and a leading +) when tapped. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, "")}`;
}

/**
 * The hotel's phone wherever a page shows it: a `tel:` link, kept on one line (`.phone-link`, never
 * "+886-2-2500-" / "8800"), written left to right whatever the page's direction (issue 25 item 5).
 */
export function PhoneLink({ phone }: { phone: string }) {
  return (
    <a className="phone-link" href={telHref(phone)} dir="ltr">
      {phone}
    </a>
  );
}

/**
 * A translated sentence with the hotel's phone in it ("Questions? Call us on {{phone}}."), the
 * phone a PhoneLink. `sentence` renders the translation with the placeholder it is given.
 */
export function SentenceWithPhone({ sentence, phone }: { sentence: (placeholder: string) => string; phone: string }) {
  const placeholder = "\u0000";
  const parts = sentence(placeholder).split(placeholder);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <PhoneLink phone={phone} /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
