import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { emailLogo } from "~/backend/mail/compose.server";

// Issue 25 item 7 / decision 083: an email's logo is an image every mail client shows. Gmail and
// Outlook do not show SVG, so an SVG logo is replaced by the PNG beside it, or by the name in text.

/** The site's static files as the asset server answers them: the repository's public/ folder. */
const publicFolder = {
  fetch: async (input: RequestInfo | URL) => {
    const path = decodeURIComponent(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return new Response(null, { status: existsSync(join("public", path)) ? 200 : 404 });
  },
  connect: () => {
    throw new Error("not a socket");
  },
} as unknown as Fetcher;

const origin = "https://taipei.example.com";

describe("emailLogo", () => {
  it("replaces an SVG logo by the PNG beside it", async () => {
    for (const hotel of ["taipei", "lakeside", "camp"]) {
      expect(await emailLogo(publicFolder, origin, `/demo/${hotel}/logo-dark.svg`)).toBe(`${origin}/demo/${hotel}/logo-dark.png`);
    }
  });

  it("leaves an SVG logo with no PNG beside it off: the email names the hotel in text", async () => {
    expect(await emailLogo(publicFolder, origin, "/brand/logo-dark.svg")).toBe("");
    expect(await emailLogo(undefined, origin, "/demo/taipei/logo-dark.svg")).toBe("");
  });

  it("keeps a PNG, JPEG or GIF logo of the site as it is", async () => {
    for (const path of ["/brand/logo.png", "/brand/logo.JPG", "/brand/logo.jpeg", "/brand/logo.gif"]) {
      expect(await emailLogo(publicFolder, origin, path)).toBe(`${origin}${path}`);
    }
  });

  it("leaves off a logo that is not a path of the site", async () => {
    for (const path of ["", "https://cdn.example.net/logo.png", "//cdn.example.net/logo.png", "/brand/logo.webp"]) {
      expect(await emailLogo(publicFolder, origin, path)).toBe("");
    }
  });
});
