/**
 * The 13 page layouts as designs: each has its own theme stylesheet (themes/<id>.css), header,
 * hero and order of home sections, so that a hotel owner browsing them sees 13 distinct sites.
 */
import type { PageLayout } from "./templates";

export type HomeSection = "intro" | "rooms" | "promotions" | "news" | "attractions" | "facilities" | "custom" | "location";
export type HeaderStyle = "bar" | "centered" | "overlay" | "split" | "stacked";
export type HeroStyle = "full" | "split" | "framed" | "stacked" | "panorama";

export interface LayoutDesign {
  id: PageLayout;
  /** What an operator reads when choosing (docs/layouts/). */
  name: string;
  header: HeaderStyle;
  /** The header is dark on every page, so it shows the hotel's white logo (logo_images.white). */
  darkHeader?: boolean;
  hero: HeroStyle;
  sections: HomeSection[];
}

const ALL: HomeSection[] = ["intro", "rooms", "promotions", "news", "facilities", "attractions", "custom", "location"];

export const LAYOUT_DESIGNS: Record<PageLayout, LayoutDesign> = {
  layout_100: {
    id: "layout_100",
    name: "Campfire — earthy greens, rounded cards, outdoors first",
    header: "bar",
    hero: "full",
    sections: ["intro", "rooms", "facilities", "attractions", "promotions", "news", "custom", "location"],
  },
  layout_200: {
    id: "layout_200",
    name: "Cottage — warm cream and terracotta, homely serif",
    header: "centered",
    hero: "framed",
    sections: ["intro", "rooms", "news", "promotions", "facilities", "attractions", "custom", "location"],
  },
  layout_300: {
    id: "layout_300",
    name: "Lakeside — deep blue and sand, calm resort",
    header: "overlay",
    hero: "full",
    sections: ["intro", "promotions", "rooms", "facilities", "attractions", "news", "custom", "location"],
  },
  layout_400: {
    id: "layout_400",
    name: "Hostel — bold yellow and black, playful grid",
    header: "bar",
    hero: "split",
    sections: ["rooms", "intro", "news", "facilities", "attractions", "promotions", "custom", "location"],
  },
  layout_500: { id: "layout_500", name: "Guesthouse — soft pastels, gentle and airy", header: "centered", hero: "stacked", sections: ALL },
  layout_501: {
    id: "layout_501",
    name: "Guesthouse Night — plum and rose gold on dark",
    header: "centered",
    darkHeader: true,
    hero: "stacked",
    sections: ["intro", "rooms", "promotions", "attractions", "facilities", "news", "custom", "location"],
  },
  layout_600: {
    id: "layout_600",
    name: "Inn — indigo and washi, Japanese restraint",
    header: "split",
    hero: "framed",
    sections: ["intro", "rooms", "facilities", "news", "attractions", "promotions", "custom", "location"],
  },
  layout_700: {
    id: "layout_700",
    name: "City — charcoal and brass, modern hotel",
    header: "bar",
    darkHeader: true,
    hero: "full",
    sections: ALL,
  },
  layout_701: {
    id: "layout_701",
    name: "City Light — white and teal, crisp business hotel",
    header: "split",
    hero: "split",
    sections: ["rooms", "promotions", "intro", "facilities", "news", "attractions", "custom", "location"],
  },
  layout_702: {
    id: "layout_702",
    name: "City Boutique — black and gold, editorial",
    header: "overlay",
    hero: "panorama",
    sections: ["intro", "promotions", "rooms", "facilities", "news", "attractions", "custom", "location"],
  },
  layout_800: {
    id: "layout_800",
    name: "Ryokan — moss and cedar, vertical calm",
    header: "stacked",
    hero: "framed",
    sections: ["intro", "facilities", "rooms", "attractions", "promotions", "news", "custom", "location"],
  },
  layout_900: {
    id: "layout_900",
    name: "Villa — olive and stone, Mediterranean light",
    header: "overlay",
    hero: "panorama",
    sections: ["intro", "rooms", "attractions", "facilities", "promotions", "news", "custom", "location"],
  },
  layout_1000: {
    id: "layout_1000",
    name: "Grand — navy and ivory, classic luxury",
    header: "centered",
    hero: "full",
    sections: ["intro", "rooms", "promotions", "facilities", "news", "attractions", "custom", "location"],
  },
};
