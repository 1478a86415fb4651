import { sanitizeHtml } from "~/lib/sanitize";

/** Hotel-provided HTML, reduced to the allow-list before it is rendered. */
export function RichText({ html, className }: { html: string; className?: string }) {
  if (!html.trim()) return null;
  return <div className={className ? `rich-text ${className}` : "rich-text"} dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />;
}
