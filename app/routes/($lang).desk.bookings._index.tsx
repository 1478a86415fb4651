import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireDeskStaff } from "~/features/desk/guard.server";
import { useDeskWords } from "~/features/desk/words";

/**
 * A stand-in for the bookings list, which the "bookings" part of issue 39 builds: the place /desk
 * leads to after sign-in. Replaced by theirs at the merge.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { staff } = await requireDeskStaff(args);
  return { name: staff.name };
}

export default function DeskBookingsStandIn() {
  const w = useDeskWords();
  return (
    <main id="main" className="desk__main">
      <h1>{w("nav.bookings")}</h1>
      <p>{w("bookings.placeholder")}</p>
    </main>
  );
}
