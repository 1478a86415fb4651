/** Every translation, bundled into the Worker (no filesystem on Workers). One set of keys for all five. */
import zhTWCommon from "../../locales/zh-TW/common.json";
import zhCNCommon from "../../locales/zh-CN/common.json";
import enUSCommon from "../../locales/en-US/common.json";
import jaJPCommon from "../../locales/ja-JP/common.json";
import koKRCommon from "../../locales/ko-KR/common.json";
import zhTWFacility from "../../locales/zh-TW/facility.json";
import zhCNFacility from "../../locales/zh-CN/facility.json";
import enUSFacility from "../../locales/en-US/facility.json";
import jaJPFacility from "../../locales/ja-JP/facility.json";
import koKRFacility from "../../locales/ko-KR/facility.json";
import zhTWDesk from "../../locales/zh-TW/desk.json";
import zhCNDesk from "../../locales/zh-CN/desk.json";
import enUSDesk from "../../locales/en-US/desk.json";
import jaJPDesk from "../../locales/ja-JP/desk.json";
import koKRDesk from "../../locales/ko-KR/desk.json";
import zhTWDeskActions from "../../locales/zh-TW/desk-actions.json";
import zhCNDeskActions from "../../locales/zh-CN/desk-actions.json";
import enUSDeskActions from "../../locales/en-US/desk-actions.json";
import jaJPDeskActions from "../../locales/ja-JP/desk-actions.json";
import koKRDeskActions from "../../locales/ko-KR/desk-actions.json";
import zhTWDeskBookings from "../../locales/zh-TW/desk-bookings.json";
import zhCNDeskBookings from "../../locales/zh-CN/desk-bookings.json";
import enUSDeskBookings from "../../locales/en-US/desk-bookings.json";
import jaJPDeskBookings from "../../locales/ja-JP/desk-bookings.json";
import koKRDeskBookings from "../../locales/ko-KR/desk-bookings.json";
import zhTWDeskCalendar from "../../locales/zh-TW/desk-calendar.json";
import zhCNDeskCalendar from "../../locales/zh-CN/desk-calendar.json";
import enUSDeskCalendar from "../../locales/en-US/desk-calendar.json";
import jaJPDeskCalendar from "../../locales/ja-JP/desk-calendar.json";
import koKRDeskCalendar from "../../locales/ko-KR/desk-calendar.json";
import zhTWCalendar from "../../locales/zh-TW/calendar.json";
import zhCNCalendar from "../../locales/zh-CN/calendar.json";
import enUSCalendar from "../../locales/en-US/calendar.json";
import jaJPCalendar from "../../locales/ja-JP/calendar.json";
import koKRCalendar from "../../locales/ko-KR/calendar.json";
import type { Language } from "./languages";

export const NAMESPACES = ["common", "facility", "desk", "desk-actions", "desk-bookings", "desk-calendar", "calendar"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export const resources: Record<Language, Record<Namespace, Record<string, string>>> = {
  "zh-TW": {
    common: zhTWCommon,
    facility: zhTWFacility,
    desk: zhTWDesk,
    "desk-actions": zhTWDeskActions,
    "desk-bookings": zhTWDeskBookings,
    "desk-calendar": zhTWDeskCalendar,
    calendar: zhTWCalendar,
  },
  "zh-CN": {
    common: zhCNCommon,
    facility: zhCNFacility,
    desk: zhCNDesk,
    "desk-actions": zhCNDeskActions,
    "desk-bookings": zhCNDeskBookings,
    "desk-calendar": zhCNDeskCalendar,
    calendar: zhCNCalendar,
  },
  "en-US": {
    common: enUSCommon,
    facility: enUSFacility,
    desk: enUSDesk,
    "desk-actions": enUSDeskActions,
    "desk-bookings": enUSDeskBookings,
    "desk-calendar": enUSDeskCalendar,
    calendar: enUSCalendar,
  },
  "ja-JP": {
    common: jaJPCommon,
    facility: jaJPFacility,
    desk: jaJPDesk,
    "desk-actions": jaJPDeskActions,
    "desk-bookings": jaJPDeskBookings,
    "desk-calendar": jaJPDeskCalendar,
    calendar: jaJPCalendar,
  },
  "ko-KR": {
    common: koKRCommon,
    facility: koKRFacility,
    desk: koKRDesk,
    "desk-actions": koKRDeskActions,
    "desk-bookings": koKRDeskBookings,
    "desk-calendar": koKRDeskCalendar,
    calendar: koKRCalendar,
  },
};
