/** The staff part of the staff API (decision 149): sign-in and enrolment, the team, the audit log. */
import type { BackendRoute } from "~/backend/route";
import { staffSignInRoutes } from "./staff-signin.server";
import { staffTeamRoutes } from "./staff-team.server";
import { staffAuditRoutes } from "./staff-audit.server";

export const staffDeskRoutes: BackendRoute[] = [...staffSignInRoutes, ...staffTeamRoutes, ...staffAuditRoutes];
