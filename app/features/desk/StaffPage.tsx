/** The staff page (staff-page.server.ts): the team with a role form and a remove form per row, and the invitation form. */
import { Form } from "@remix-run/react";
import type { StaffPageView } from "./staff-page.server";
import { useDeskWords } from "./words";

const ROLES = ["owner", "front_desk", "read_only"] as const;

function RoleSelect({ id, value }: { id: string; value: string }) {
  const w = useDeskWords();
  return (
    <select id={id} name="role" defaultValue={value}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {w(`role.${role}`)}
        </option>
      ))}
    </select>
  );
}

export function StaffPage({ view }: { view: StaffPageView }) {
  const w = useDeskWords();
  return (
    <main id="main" className="desk__main">
      <h1>{w("staff.title")}</h1>
      {view.done ? (
        <p className="alert alert--success" role="status">
          {w(view.done === "already" ? "staff.done.already" : `staff.done.${view.done}`, { email: view.doneEmail })}
        </p>
      ) : null}
      {view.error ? (
        <p className="alert alert--danger" role="alert">
          {view.error}
        </p>
      ) : null}
      <ul className="desk__staff">
        {view.staff.map((member) => (
          <li key={member.id} className="desk__card" data-staff={member.email}>
            <p>
              <strong>{member.name || member.email}</strong> {member.id === view.me ? w("staff.you") : null}
              <br />
              {member.email}
              <br />
              {w(`role.${member.role}`)} · {w(`status.${member.status}`)}
              {member.enrolled ? ` · ${w("status.enrolled")}` : null}
            </p>
            <Form method="post" className="desk__inline">
              <input type="hidden" name="csrf" value={view.csrf} />
              <input type="hidden" name="form_key" value={member.roleKey} />
              <input type="hidden" name="staff_id" value={member.id} />
              <label htmlFor={`role-${member.id}`}>{w("staff.role")}</label>
              <RoleSelect id={`role-${member.id}`} value={member.role} />
              <button type="submit" name="intent" value="role" className="button button--secondary">
                {w("staff.change_role")}
              </button>
            </Form>
            {member.id === view.me ? null : (
              <Form method="post" className="desk__inline">
                <input type="hidden" name="csrf" value={view.csrf} />
                <input type="hidden" name="form_key" value={member.removeKey} />
                <input type="hidden" name="staff_id" value={member.id} />
                <button type="submit" name="intent" value="remove" className="button button--danger">
                  {w("staff.remove")}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <section className="desk__card">
        <h2>{w("staff.invite_title")}</h2>
        <p>{w("staff.invite_intro")}</p>
        <Form method="post" className="desk__form">
          <input type="hidden" name="csrf" value={view.csrf} />
          <input type="hidden" name="form_key" value={view.inviteKey} />
          <div className="field">
            <label htmlFor="invite-email">{w("staff.email")}</label>
            <input id="invite-email" name="email" type="email" maxLength={200} required defaultValue={view.values.email} />
          </div>
          <div className="field">
            <label htmlFor="invite-name">{w("staff.name")}</label>
            <input id="invite-name" name="name" maxLength={100} defaultValue={view.values.name} />
          </div>
          <div className="field">
            <label htmlFor="invite-role">{w("staff.role")}</label>
            <RoleSelect id="invite-role" value={view.values.role} />
          </div>
          <button type="submit" name="intent" value="invite" className="button">
            {w("staff.invite_submit")}
          </button>
        </Form>
      </section>
    </main>
  );
}
