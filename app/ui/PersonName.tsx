import { Fragment } from "react";
import { nameForDisplay } from "~/domain/contact";

/**
 * A person's name as typed by a guest, isolated from the text around it (`<bdi>`): a right-to-left
 * name, or a direction control stored before names refused them (decision 052), cannot reorder
 * the phone number, email or words shown beside it.
 */
export function PersonName({ name }: { name: string }) {
  return <bdi>{nameForDisplay(name)}</bdi>;
}

/**
 * A translated sentence with a name in it ("Signed in as {{name}}"), the name isolated. `sentence`
 * renders the translation with the placeholder it is given.
 */
export function SentenceWithName({ sentence, name }: { sentence: (placeholder: string) => string; name: string }) {
  const placeholder = "\u0000";
  const parts = sentence(placeholder).split(placeholder);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <PersonName name={name} /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
