/** What Meta's fbevents.js expects to find in window.fbq before it loads (the official snippet's stub). */
export interface PixelStub {
  (...args: unknown[]): void;
  /** Set by fbevents.js once loaded: from then on calls go to it, not to the queue. */
  callMethod?: (...args: unknown[]) => void;
  queue: IArguments[];
  push: PixelStub;
  loaded: boolean;
  version: string;
}

/**
 * The fbq stub of Meta's snippet, with pixel events de-duplicated within 100 ms (spec §9): the same
 * event with the same data sent twice in quick succession (a double click, two handlers) is queued
 * or sent once. The de-dup lives inside the stub, so fbevents.js still finds its queue, version and
 * callMethod on window.fbq and drains it.
 *
 * It is browser source kept as text, not a function whose source is read back: the Worker's
 * bundler renames and wraps functions (`__name(…)`), which would leave the inlined copy calling
 * helpers the browser does not have. Called as `(PIXEL_STUB_SOURCE)(now, windowMs)`.
 */
export const PIXEL_STUB_SOURCE = `function (now, windowMs) {
  var lastSent = {};
  var fbq = function () {
    var args = arguments;
    var key = JSON.stringify(Array.prototype.slice.call(args));
    var time = now();
    if (Object.prototype.hasOwnProperty.call(lastSent, key) && time - lastSent[key] < windowMs) return;
    lastSent[key] = time;
    if (fbq.callMethod) fbq.callMethod.apply(fbq, args);
    else fbq.queue.push(args);
  };
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = "2.0";
  fbq.queue = [];
  return fbq;
}`;

/** Meta's pixel snippet for one pixel id, with the de-duplicating stub; it tracks the page view. */
export function pixelScript(pixelId: string): string {
  return (
    `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=(${PIXEL_STUB_SOURCE})(Date.now,100);if(!f._fbq)f._fbq=n;` +
    `t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}` +
    `(window,document,"script","https://connect.facebook.net/en_US/fbevents.js");` +
    `window.fbq("init",${JSON.stringify(pixelId)});window.fbq("track","PageView");`
  );
}
