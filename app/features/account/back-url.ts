/**
 * login_back_url: where a guest returns after signing in. Only a path of this site is kept (the one
 * rule of ~/lib/local-path, which the back end's return addresses follow too); anything else reads
 * as null, and the guest returns to the home page.
 */
export { safeLocalPath as safeBackPath } from "~/lib/local-path";
