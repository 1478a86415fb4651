import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GtmNoscript } from "~/ui/Analytics";
import { securityHeaders } from "~/platform/security.server";

describe("Google Tag Manager without JavaScript", () => {
  it("renders Google's noscript iframe for the container", () => {
    expect(renderToStaticMarkup(createElement(GtmNoscript, { gtm: "GTM-AB12CD" }))).toBe(
      '<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-AB12CD" title="Google Tag Manager" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>',
    );
  });

  it("renders nothing without a container, or with one that is not an id", () => {
    expect(renderToStaticMarkup(createElement(GtmNoscript, { gtm: "" }))).toBe("");
    expect(renderToStaticMarkup(createElement(GtmNoscript, { gtm: '"><script>' }))).toBe("");
  });

  it("is allowed by the page's Content Security Policy", () => {
    const csp = securityHeaders(new Response("x"), { nonce: "n" }).headers.get("content-security-policy") ?? "";
    const frameSrc = /(?:^|;\s*)frame-src ([^;]*)/.exec(csp)?.[1]?.split(" ") ?? [];
    expect(frameSrc).toContain("https://www.googletagmanager.com");
  });
});
