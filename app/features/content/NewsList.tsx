import { LocaleLink } from "~/ui/LocaleLink";
import { formatDate } from "~/i18n/format";
import type { Language } from "~/i18n/languages";

export interface NewsListItem {
  promotion_id: number;
  promotion_title: string;
  public_time: string;
}

/** News items, each its date and a link to its page: on the home page and on /news. */
export function NewsList({ items, lang }: { items: readonly NewsListItem[]; lang: Language }) {
  return (
    <ul className="news-list">
      {items.map((item) => (
        <li key={item.promotion_id}>
          <time dateTime={item.public_time}>{formatDate(item.public_time, lang)}</time>{" "}
          <LocaleLink to={`/event?id=${item.promotion_id}`}>{item.promotion_title}</LocaleLink>
        </li>
      ))}
    </ul>
  );
}
