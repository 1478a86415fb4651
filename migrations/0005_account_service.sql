-- The account service (spec §7 Login): OAuth codes with PKCE, the service's own sign-in session,
-- hotel-scoped PMS tokens and sign-in attempts for rate limiting (docs/decisions/035).

-- One row per authorization code. The code itself is never stored, only its SHA-256. `state` is
-- unique per client: a state seen once is refused ever after. `used_at` makes a code one-time.
CREATE TABLE oauth_codes (
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL,
  state TEXT NOT NULL,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  session_hash TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scope TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL,
  used_at TEXT,
  UNIQUE (client_id, state)
);

-- The account service's own session (cookie `account_session` on its /account path).
CREATE TABLE account_sessions (
  session_hash TEXT PRIMARY KEY,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
);

-- The session a member token was issued under: signing out ends the session and its tokens.
ALTER TABLE member_tokens ADD COLUMN session_hash TEXT;

-- Hotel-scoped tokens ({pms}/oauth/token/exchange): valid only at their hotel.
CREATE TABLE pms_tokens (
  token_hash TEXT PRIMARY KEY,
  member_token_hash TEXT NOT NULL,
  member_id INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
  hotel_id INTEGER NOT NULL REFERENCES hotels(id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL
);
CREATE INDEX pms_tokens_member_token ON pms_tokens (member_token_hash);

-- Plans sold to signed-in members only: hidden from guests, refused in their price checks and orders.
ALTER TABLE rate_plans ADD COLUMN members_only INTEGER NOT NULL DEFAULT 0 CHECK (members_only IN (0, 1));

-- Failed sign-ins, counted per account (hotel and email) and per address over a window.
CREATE TABLE login_failures (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hotel_id INTEGER NOT NULL,
  email TEXT NOT NULL COLLATE NOCASE,
  ip TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX login_failures_account ON login_failures (hotel_id, email, at);
CREATE INDEX login_failures_ip ON login_failures (ip, at);
