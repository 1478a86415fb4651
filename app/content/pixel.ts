/**
 * Meta pixel events de-duplicated within 100 ms (spec §9): the same event with the same data sent
 * twice in quick succession (a double click, two handlers) is tracked once.
 * Self-contained on purpose: its source is inlined into the page by <Analytics>.
 */
export function createPixelDeduper(send: (...args: unknown[]) => void, now: () => number = () => Date.now(), windowMs = 100) {
  const lastSent = new Map<string, number>();
  return function track(...args: unknown[]): boolean {
    const key = JSON.stringify(args);
    const time = now();
    const previous = lastSent.get(key);
    if (previous !== undefined && time - previous < windowMs) return false;
    lastSent.set(key, time);
    send(...args);
    return true;
  };
}
