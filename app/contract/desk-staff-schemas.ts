/** Answers of the staff API's staff part (decision 149): sign-in, enrolment, the team, the audit log. */
import * as v from "valibot";

const Role = v.picklist(["owner", "front_desk", "read_only"]);
/** A staff member's role at the desk (backend/desk/staff.server.ts STAFF_ROLES). */
export type DeskRole = v.InferOutput<typeof Role>;

export const DeskSignInSchema = v.object({
  token: v.string(),
  stage: v.picklist(["password", "full"]),
  enrol: v.optional(v.boolean(), false),
  recovery_code_used: v.optional(v.boolean(), false),
  recovery_codes: v.optional(v.array(v.string()), []),
});
export type DeskSignIn = v.InferOutput<typeof DeskSignInSchema>;

export const DeskEnrolmentSchema = v.object({
  secret: v.string(),
  uri: v.string(),
  qr_svg: v.string(),
  issuer: v.string(),
  account: v.string(),
});
export type DeskEnrolment = v.InferOutput<typeof DeskEnrolmentSchema>;

export const DeskMeSchema = v.object({ id: v.number(), email: v.string(), name: v.string(), role: Role, lang: v.string() });
export type DeskMe = v.InferOutput<typeof DeskMeSchema>;

export const DeskStaffListSchema = v.object({
  staff: v.array(
    v.object({
      id: v.number(),
      email: v.string(),
      name: v.string(),
      role: Role,
      status: v.string(),
      enrolled: v.boolean(),
      created_at: v.string(),
    }),
  ),
});
export type DeskStaffMember = v.InferOutput<typeof DeskStaffListSchema>["staff"][number];

export const DeskChangeSchema = v.object({ already_done: v.boolean() });

export const DeskInvitationSchema = v.object({ email: v.string(), name: v.string(), role: Role });

export const DeskAuditSchema = v.object({
  entries: v.array(
    v.object({
      id: v.number(),
      created_at: v.string(),
      staff_email: v.string(),
      ip: v.string(),
      action: v.string(),
      subject: v.string(),
      before: v.string(),
      after: v.string(),
    }),
  ),
  next_before: v.nullable(v.number()),
});
export type DeskAudit = v.InferOutput<typeof DeskAuditSchema>;

/** A refused sign-in may carry a challenge (the captcha) to show with the form. */
export const DeskChallengeSchema = v.object({
  challenge: v.object({ token: v.string(), picture: v.string(), question: v.string() }),
});
