import { Outlet, Scripts, ScrollRestoration, useLoaderData } from "@remix-run/react";
import { bodyAttributes, Body, Head, htmlAttributes } from "./generated/page";
import { rootData } from "./generated/data";

/** Portico's root loader's data, as the page had it. */
export const loader = () => rootData;

/** The document of the page (head and body as generated), with Remix's scripts where the page has them. */
export default function Root() {
  useLoaderData<typeof loader>();
  return (
    <html {...htmlAttributes}>
      <head>
        <Head />
      </head>
      <body {...bodyAttributes}>
        <Body
          outlet={<Outlet />}
          scripts={
            <>
              <ScrollRestoration />
              <Scripts />
            </>
          }
        />
      </body>
    </html>
  );
}
