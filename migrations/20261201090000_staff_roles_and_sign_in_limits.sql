-- Staff accounts and roles, invitations and a shared sign-in limiter (issue #13, SPEC §13).

-- An account is an admin or a user. What a user may do in a tournament belongs to the
-- assignment (tournament_staff.role), so one person can be chief arbiter of one event and
-- scorer of another.
alter table app_user drop constraint app_user_role_check;
update app_user set role = 'user' where role <> 'admin';
alter table app_user alter column role set default 'user';
alter table app_user add constraint app_user_role_check check (role in ('admin', 'user'));
-- A disabled account cannot sign in and has no sessions; the row stays so the audit trail
-- and the assignments keep their author.
alter table app_user add column disabled_at timestamptz;

-- Sessions get a public id, so a user can list and end them without seeing the tokens.
alter table user_session add column session_id uuid not null default gen_random_uuid();
alter table user_session add constraint user_session_session_id_key unique (session_id);

-- tournament_arbiter becomes tournament_staff: one role per person and tournament.
alter table tournament_arbiter rename to tournament_staff;
alter table tournament_staff rename constraint tournament_arbiter_pkey to tournament_staff_pkey;
alter table tournament_staff rename constraint tournament_arbiter_tournament_id_fkey
    to tournament_staff_tournament_id_fkey;
alter table tournament_staff rename constraint tournament_arbiter_user_id_fkey
    to tournament_staff_user_id_fkey;
alter table tournament_staff add column role text not null default 'arbiter';
alter table tournament_staff add column created_at timestamptz not null default now();
alter table tournament_staff add constraint tournament_staff_role_check
    check (role in ('chief_arbiter', 'arbiter', 'scorer'));
-- Until now the only assignment was creating the tournament: the creator is its chief.
update tournament_staff set role = 'chief_arbiter';
create index tournament_staff_user_id_idx on tournament_staff (user_id);

-- Single-use invitation links for a role in one tournament. Only the token's hash is stored;
-- the link (and its QR code) is shown once to the chief arbiter who made it.
create table staff_invitation
(
    invitation_id uuid primary key default gen_random_uuid(),
    token_hash    bytea not null,
    tournament_id uuid not null references tournament (tournament_id) on delete cascade,
    role          text not null,
    created_by    uuid references app_user (user_id) on delete set null,
    created_at    timestamptz not null default now(),
    expires_at    timestamptz not null,
    -- Set when the link was used (then it cannot be used again) or withdrawn.
    used_at       timestamptz,
    used_by       uuid references app_user (user_id) on delete set null,
    constraint staff_invitation_token_hash_key unique (token_hash),
    constraint staff_invitation_role_check check (role in ('arbiter', 'scorer'))
);
create index staff_invitation_tournament_id_idx on staff_invitation (tournament_id);

-- Single-use links an admin makes so a user sets a new password themself (nobody types a
-- password for someone else). Only the token's hash is stored.
create table password_reset
(
    token_hash bytea primary key,
    user_id    uuid not null references app_user (user_id) on delete cascade,
    created_by uuid references app_user (user_id) on delete set null,
    expires_at timestamptz not null,
    used_at    timestamptz
);
create index password_reset_user_id_idx on password_reset (user_id);

-- The sign-in and registration limiter, shared by the pages, the API and every server
-- instance. One row per key ('account:NAME', 'address:IP', 'register:IP:SECTION').
create table sign_in_throttle
(
    key          text primary key,
    -- Attempts in the current window.
    hits         integer not null default 0,
    window_start timestamptz not null default now(),
    -- Lockouts so far (each one twice as long as the one before), until a success.
    lockouts     integer not null default 0,
    locked_until timestamptz
);

-- Counts one attempt for p_key and returns the end of its lockout, or null when the attempt
-- may go ahead. Called before the password is checked, so concurrent guesses cannot slip
-- between a check and a record: the row lock serialises them. The (p_limit + 1)th attempt
-- within p_window starts a lockout of p_lockout, doubled for each lockout before it (at most
-- p_max_lockout); during a lockout every attempt is refused, the right password too.
create function sign_in_hit(p_key text, p_limit integer, p_window interval,
                            p_lockout interval, p_max_lockout interval)
    returns timestamptz
    language plpgsql
as
$$
declare
    r sign_in_throttle;
begin
    insert into sign_in_throttle (key) values (p_key) on conflict (key) do nothing;
    select * into strict r from sign_in_throttle where key = p_key for update;
    if r.locked_until > now() then
        return r.locked_until;
    end if;
    if r.locked_until is not null or r.window_start <= now() - p_window then
        r.hits := 0;
        r.window_start := now();
        r.locked_until := null;
    end if;
    r.hits := r.hits + 1;
    if r.hits > p_limit then
        r.lockouts := r.lockouts + 1;
        r.locked_until := now() + least(p_lockout * power(2, least(r.lockouts - 1, 20)), p_max_lockout);
        r.hits := 0;
    end if;
    update sign_in_throttle
    set hits = r.hits, window_start = r.window_start, lockouts = r.lockouts,
        locked_until = r.locked_until
    where key = p_key;
    -- Forget idle keys now and then, so a spray of names does not grow the table forever.
    if random() < 0.01 then
        delete from sign_in_throttle
        where window_start < now() - interval '1 day'
          and (locked_until is null or locked_until < now() - interval '1 day');
    end if;
    return r.locked_until;
end
$$;
