import { Outlet, useLoaderData } from "@remix-run/react";
import { Layout } from "../generated/page";
import { layoutData } from "../generated/data";

/** Portico's ($lang) layout: its data, and the site's header and footer around the page. */
export const loader = () => layoutData;

export default function SiteLayout() {
  useLoaderData<typeof loader>();
  return <Layout outlet={<Outlet />} />;
}
