import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SignInPage } from "~/features/desk/SignInPage";
import { loadSignIn, signInAction } from "~/features/desk/sign-in.server";
import { deskTitle } from "~/features/desk/words";

/** /desk/sign-in: email and password, then the authenticator's code (features/desk/sign-in.server.ts). */
export async function loader(args: LoaderFunctionArgs) {
  return loadSignIn(args);
}

export async function action(args: ActionFunctionArgs) {
  return signInAction(args);
}

export const meta: MetaFunction = ({ params }) => [{ title: deskTitle(params.lang, "signin.title") }];

export default function DeskSignIn() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  return <SignInPage view={acted ?? loaded} />;
}
