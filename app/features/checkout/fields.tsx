/** The checkout form's field plumbing: values typed, the member's prefill, and each field's error. */
import { useTranslation } from "~/i18n/react";

export type Values = Record<string, string>;
export type FieldErrors = Record<string, string>;

export function FieldError({
  errors,
  name,
  params,
}: {
  errors: FieldErrors | undefined;
  name: string;
  params?: Record<string, string | number>;
}) {
  const { t } = useTranslation();
  const error = errors?.[name];
  return error ? (
    <p className="field__error" id={`${name}-error`}>
      {t(error, params)}
    </p>
  ) : null;
}

/** The props a text field of the form takes: its name and id, what it holds, and its error's wiring. */
export function fieldProps(values: Values, prefill: Values, fieldErrors: FieldErrors) {
  return (name: string) => ({
    name,
    id: name,
    defaultValue: values[name] ?? prefill[name] ?? "",
    "aria-invalid": fieldErrors[name] ? true : undefined,
    "aria-describedby": fieldErrors[name] ? `${name}-error` : undefined,
  });
}

export type FieldProps = ReturnType<typeof fieldProps>;
