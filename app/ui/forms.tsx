import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";

/**
 * True once the page's scripts run. Forms then skip the browser's own validation bubbles, which
 * speak the browser's language, and let the server answer with its messages in the guest's
 * language beside each field (decision 021). Without JavaScript the browser's checks stay.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Calls `onDone` with the submitted form data once a form submission of the page (search, add,
 * checkout) has finished and the page shows its answer: the moment to move focus and announce.
 */
export function useSubmissionDone(onDone: (submitted: FormData) => void): void {
  const navigation = useNavigation();
  const pending = useRef<FormData | null>(null);
  const latest = useRef(onDone);
  latest.current = onDone;
  useEffect(() => {
    if (navigation.formData) pending.current = navigation.formData;
    else if (navigation.state === "idle" && pending.current) {
      const submitted = pending.current;
      pending.current = null;
      latest.current(submitted);
    }
  }, [navigation.state, navigation.formData]);
}

/** Moves focus to the first field marked invalid inside `root`; false when there is none. */
export function focusFirstInvalid(root: HTMLElement | null | undefined): boolean {
  const field = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return false;
  field.focus();
  return true;
}
