/**
 * Input that arrives while React is still hydrating goes to the browser alone.
 *
 * React 18 answers a click, a key or an input event on a page it has not yet hydrated by
 * hydrating it synchronously. Remix's single fetch makes the first render of `<RemixBrowser>` wait
 * for the page's data to be decoded, and a synchronous render cannot wait: React then gives up
 * on the whole document ("Root did not complete", error 345) and the page never hydrates. A guest
 * who taps or types in the few milliseconds before scripts take over would lose the enhanced page.
 *
 * So until the root has hydrated, these events stop at the window, before React's listeners on
 * the document see them. Nothing is prevented: the browser still types, checks, follows links and
 * submits forms exactly as it does without JavaScript, which every page supports (decision 012).
 */

/** The events for which React 18 forces synchronous hydration (its "discrete replayable" events). */
export const HELD_EVENTS = [
  "mousedown",
  "mouseup",
  "touchcancel",
  "touchend",
  "touchstart",
  "auxclick",
  "dblclick",
  "pointercancel",
  "pointerdown",
  "pointerup",
  "dragend",
  "dragstart",
  "drop",
  "compositionend",
  "compositionstart",
  "keydown",
  "keypress",
  "keyup",
  "input",
  "textInput",
  "copy",
  "cut",
  "paste",
  "click",
  "change",
  "contextmenu",
  "reset",
  "submit",
] as const;

const stopAtWindow = (event: Event) => event.stopPropagation();
let holding = false;

/** Called before hydration starts. */
export function holdInputUntilHydrated(target: Window = window): void {
  if (holding) return;
  holding = true;
  for (const type of HELD_EVENTS) target.addEventListener(type, stopAtWindow, true);
}

/** Called once the root has hydrated (its first effect): React takes the events from here on. */
export function markHydrated(target: Window = window): void {
  for (const type of HELD_EVENTS) target.removeEventListener(type, stopAtWindow, true);
  holding = false;
  target.document.documentElement.dataset.hydrated = "true";
}
