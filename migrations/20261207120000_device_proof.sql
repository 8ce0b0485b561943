-- Issue #35: OWASP's device cookies. A successful sign-in gives the device a random proof
-- (stored here as its SHA-256); later sign-ins of the same account presenting it count on
-- the device's own counter, so strangers' guesses that lock the account out do not lock out
-- its owner on a device already used.
create table device_proof
(
    hash       bytea primary key,
    user_id    uuid not null references app_user (user_id) on delete cascade,
    created_at timestamptz not null default now(),
    used_at    timestamptz not null default now()
);

create index device_proof_user_idx on device_proof (user_id);
