-- Every player has a key (issue 36): a private key per entrant (a doubles team is one entrant,
-- so one key per team), a report code per side of a board, and self check-in.

-- A key: 16 characters of Crockford's base32 (0-9 and A-Z without I, L, O, U), 80 random
-- bits. Each character is the low 5 bits of one byte of two v4 UUIDs (gen_random_uuid draws
-- from the server's strong random source); the bytes used are those without a fixed version
-- or variant bit in their low 5 bits (byte 6 of a UUID holds the version, so it is skipped).
create function new_entrant_key() returns text
    language sql volatile
as $$
    select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (get_byte(b, i) & 31) + 1, 1), ''
                       order by n)
    from (select decode(replace(gen_random_uuid()::text, '-', '')
                        || replace(gen_random_uuid()::text, '-', ''), 'hex') as b) bytes,
         unnest(array[0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]) with ordinality as u(i, n)
$$;

-- One key per entrant, in its own table so that no query of entrants can show it by chance.
-- Re-issuing draws a new key (the old one stops working). Not part of an event file: an
-- imported entrant gets a new key from the trigger below.
create table entrant_key
(
    entrant_id uuid primary key references entrant (entrant_id) on delete cascade,
    key        text not null default new_entrant_key(),
    issued_at  timestamptz not null default now(),
    constraint entrant_key_key_key unique (key),
    constraint entrant_key_key_check check (key ~ '^[0-9A-HJKMNP-TV-Z]{16}$')
);

insert into entrant_key (entrant_id) select entrant_id from entrant;

create function entrant_key_for_new_entrant() returns trigger
    language plpgsql
as $$
begin
    insert into entrant_key (entrant_id) values (new.entrant_id);
    return null;
end
$$;

create trigger entrant_key_for_new_entrant after insert on entrant
    for each row execute function entrant_key_for_new_entrant();

-- A board's codes, one per side: `report_code` is Red's (12 hex digits on boards made before
-- this migration, 16 from now on), `black_code` Black's (16 hex digits = 64 random bits of a
-- v4 UUID: the version digit and the variant digit are skipped).
create function new_report_code() returns text
    language sql volatile
as $$
    select upper(substr(h, 1, 12) || substr(h, 18, 4))
    from (select replace(gen_random_uuid()::text, '-', '') as h) u
$$;

alter table board alter column report_code set default new_report_code();
alter table board drop constraint board_report_code_check;
alter table board add constraint board_report_code_check
    check (report_code ~ '^([0-9A-F]{12}|[0-9A-F]{16})$');
alter table board add column black_code text not null default new_report_code();
alter table board add constraint board_black_code_key unique (black_code);
alter table board add constraint board_black_code_check check (black_code ~ '^[0-9A-F]{16}$');

-- Self check-in: a window and a switch per section; who checked an entrant in.
alter table section add column self_check_in boolean not null default false;
alter table section add column check_in_opens_at timestamptz;
alter table section add column check_in_closes_at timestamptz;
alter table section add constraint section_check_in_window_check
    check (check_in_closes_at is null or check_in_opens_at is null or check_in_closes_at > check_in_opens_at);
alter table entrant add column checked_in_by_self boolean not null default false;
-- A change of `checked_in` that does not say who made it (the desk's) is not the player's.
create function entrant_check_in_by_desk() returns trigger
    language plpgsql
as $$
begin
    if new.checked_in is distinct from old.checked_in
       and new.checked_in_by_self is not distinct from old.checked_in_by_self then
        new.checked_in_by_self := false;
    end if;
    return new;
end
$$;

create trigger entrant_check_in_by_desk before update on entrant
    for each row execute function entrant_check_in_by_desk();
