/**
 * Theme stylesheets, one per layout; only the active ones are linked into a page. Each booking layout's
 * stylesheet starts with `@import "./booking_base.css"`, which the build inlines (decision 147).
 */
import booking100 from "./themes/booking_100.css";
import booking200 from "./themes/booking_200.css";
import layout100 from "./themes/layout_100.css";
import layout1000 from "./themes/layout_1000.css";
import layout200 from "./themes/layout_200.css";
import layout300 from "./themes/layout_300.css";
import layout400 from "./themes/layout_400.css";
import layout500 from "./themes/layout_500.css";
import layout501 from "./themes/layout_501.css";
import layout600 from "./themes/layout_600.css";
import layout700 from "./themes/layout_700.css";
import layout701 from "./themes/layout_701.css";
import layout702 from "./themes/layout_702.css";
import layout800 from "./themes/layout_800.css";
import layout900 from "./themes/layout_900.css";
import type { BookingLayout, PageLayout } from "./templates";

export const THEME_STYLESHEETS: Record<PageLayout | BookingLayout, string> = {
  layout_100: layout100,
  layout_200: layout200,
  layout_300: layout300,
  layout_400: layout400,
  layout_500: layout500,
  layout_501: layout501,
  layout_600: layout600,
  layout_700: layout700,
  layout_701: layout701,
  layout_702: layout702,
  layout_800: layout800,
  layout_900: layout900,
  layout_1000: layout1000,
  booking_100: booking100,
  booking_200: booking200,
};
