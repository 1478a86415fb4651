/**
 * Writing text into HTML: the one escape of the site and the back end (issue 24). Escapes the five
 * characters that can end a text node or a quoted attribute, so the result is safe in both.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
