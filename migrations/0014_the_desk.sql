-- Issue 39, the hotel's desk (decision 148): staff of one hotel, their sessions, one-time links
-- (invitation), recovery codes, and the append-only audit log of every staff action.

-- A member of a hotel's staff. Removing one keeps the row (the audit log names them) and ends
-- every session at once (their rows are deleted in the same batch).
CREATE TABLE staff (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  email TEXT NOT NULL COLLATE NOCASE,
  name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('owner', 'front_desk', 'read_only')),
  -- PBKDF2 as members' (backend/account/passwords.ts); '' until the invitation is accepted.
  password_hash TEXT NOT NULL DEFAULT '',
  -- RFC 6238 secret, base32; '' until enrolled. totp_last_step: the time step of the last code
  -- accepted, so that no code is ever accepted twice.
  totp_secret TEXT NOT NULL DEFAULT '',
  totp_last_step INTEGER NOT NULL DEFAULT 0,
  lang TEXT NOT NULL DEFAULT 'zh-TW',
  status TEXT NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'active', 'removed')),
  -- When this staff member last opened the bookings' "new" list: what is new is what came after.
  bookings_seen_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  removed_at TEXT,
  UNIQUE (hotel_id, email)
);

-- A desk session: only the token's SHA-256 is kept. stage 'password': the password was right and
-- the second factor is awaited; 'full': signed in. Idle timeout by last_seen_at; expires_at is the
-- absolute end.
CREATE TABLE staff_sessions (
  token_hash TEXT PRIMARY KEY,
  staff_id INTEGER NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  stage TEXT NOT NULL CHECK (stage IN ('password', 'full')),
  -- At stage 'password': wrong second-factor codes typed in this session (past a few it ends), and
  -- the secret offered for enrolment until its first code confirms it (then it is the staff's).
  code_failures INTEGER NOT NULL DEFAULT 0,
  pending_totp_secret TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  expires_at TEXT NOT NULL
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);

-- A one-time link emailed to a member of staff (an invitation): only the token's SHA-256 is kept.
CREATE TABLE staff_links (
  token_hash TEXT PRIMARY KEY,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  staff_id INTEGER NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('invite')),
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX staff_links_staff ON staff_links (staff_id);

-- One-time recovery codes for a lost authenticator: SHA-256 only; a used code stays, marked.
CREATE TABLE staff_recovery_codes (
  staff_id INTEGER NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at TEXT,
  PRIMARY KEY (staff_id, code_hash)
);

-- Every staff action, append-only: who (id and the email at the time), when, from which address,
-- what, on what, and the state before and after (JSON). form_key: the one-time key of the form
-- that asked for it, so that a replayed form applies nothing (UNIQUE per hotel).
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id),
  staff_id INTEGER REFERENCES staff(id),
  staff_email TEXT NOT NULL DEFAULT '',
  ip TEXT NOT NULL DEFAULT '',
  action TEXT NOT NULL,
  -- What it acted on: 'order:<order_doc>', 'staff:<id>', 'hotel'.
  subject TEXT NOT NULL DEFAULT '',
  before TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(before)),
  after TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(after)),
  form_key TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (hotel_id, form_key)
);
CREATE INDEX audit_log_by_hotel ON audit_log (hotel_id, id);
CREATE INDEX audit_log_by_subject ON audit_log (hotel_id, subject, id);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log_is_append_only'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log_is_append_only'); END;

-- Where the guest is in their stay, as the front desk records it.
ALTER TABLE orders ADD COLUMN stay_status TEXT NOT NULL DEFAULT 'expected'
  CHECK (stay_status IN ('expected', 'in_house', 'checked_out', 'no_show'));
