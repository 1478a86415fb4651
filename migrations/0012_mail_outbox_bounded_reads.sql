-- Issue 26, orders under load (decision 128): two reads of the mail outbox made for every order
-- read every row of the hotel's outbox, so each order cost more as mail piled up.
--
-- The per-recipient limit on order emails (orderEmailAllowed) compares the address without regard
-- to case: the recipient index (BINARY) could not serve it. This one can.
CREATE INDEX mail_outbox_recipient_nocase ON mail_outbox (hotel_id, to_address COLLATE NOCASE, created_at);

-- Composition takes the messages not yet rendered, oldest first: only those rows are in this index.
CREATE INDEX mail_outbox_uncomposed ON mail_outbox (id) WHERE subject IS NULL AND status = 'queued';
