import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Bare" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return { path: new URL(request.url).pathname, rooms: ["Deluxe King", "Twin", "Family Suite"] };
}

export default function Index() {
  const data = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>A bare Remix page</h1>
      <p>{data.path}</p>
      <ul>
        {data.rooms.map((room) => (
          <li key={room}>{room}</li>
        ))}
      </ul>
    </main>
  );
}
