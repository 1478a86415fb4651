import type { LoaderFunctionArgs, LinksFunction, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { DeskFrame } from "~/features/desk/DeskFrame";
import { loadDeskFrame } from "~/features/desk/layout.server";
import { useDeskWords } from "~/features/desk/words";
import { ServerError } from "~/ui/ServerError";
import deskStyles from "~/features/desk/desk.css";

/**
 * The hotel's desk (decisions 148, 149): every desk page is a child of this frame. The site's
 * layout leaves out its guest header, footer and analytics for it (`handle.desk`), keeping the
 * hotel's theme. Every answer under /desk is `private, no-store` and `noindex` (platform/security.server.ts).
 */
export const handle = { desk: true };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: deskStyles }];

export async function loader(args: LoaderFunctionArgs) {
  return loadDeskFrame(args);
}

export const meta: MetaFunction = () => [{ name: "robots", content: "noindex, nofollow" }];

export default function DeskLayout() {
  const frame = useLoaderData<typeof loader>();
  return (
    <DeskFrame frame={frame}>
      <Outlet />
    </DeskFrame>
  );
}

/** A page the signed-in role may not open (403), or any other failure, inside the desk's frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const frame = useRouteLoaderData<typeof loader>("routes/($lang).desk");
  const w = useDeskWords();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const body =
    status === 403 ? (
      <main id="main" className="desk__main">
        <p className="alert alert--danger" role="alert">
          {w("error.forbidden")}
        </p>
      </main>
    ) : (
      <ServerError status={status} />
    );
  return frame ? <DeskFrame frame={frame}>{body}</DeskFrame> : body;
}
