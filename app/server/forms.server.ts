/**
 * The body of a form POST, or null when it is not one of our forms at all (JSON, an empty body, no
 * or another Content-Type): Request.formData() throws on most of those, a 500 for the guest.
 */
export async function readForm(request: Request): Promise<FormData | null> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") return null;
  try {
    const form = await request.formData();
    return [...form.keys()].length > 0 ? form : null;
  } catch {
    return null;
  }
}
