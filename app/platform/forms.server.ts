/**
 * The one reader of a posted form (decision 060): every action of the site, the account service's
 * forms and the test gateway read their body here.
 */

/** No form of ours comes near this (the checkout, the largest, is a few KB); the API has the same cap. */
export const MAX_FORM_BYTES = 64 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The body of a form POST, or null when it is not one of our forms at all: JSON, text, an empty
 * body, no or another Content-Type, a multipart body that does not match its boundary, or one larger
 * than MAX_FORM_BYTES. Request.formData() throws on most of those, which was a 500 for the guest;
 * the caller answers null with its page and a 4xx instead.
 */
export async function readForm(request: Request): Promise<FormData | null> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.has(type)) return null;
  if (Number(request.headers.get("content-length") ?? "0") > MAX_FORM_BYTES) return null;
  try {
    const body = await request.arrayBuffer();
    if (body.byteLength === 0 || body.byteLength > MAX_FORM_BYTES) return null;
    const form = await new Response(body, { headers: { "content-type": request.headers.get("content-type") ?? type } }).formData();
    return [...form.keys()].length > 0 ? form : null;
  } catch {
    return null;
  }
}
