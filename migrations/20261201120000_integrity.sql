-- Data that stays right under concurrent edits (issue #12).

-- The audit log outlives what it describes: its rows are append-only (a trigger refuses every
-- update and delete), so its references may not cascade or be set null when a tournament or
-- a user is deleted. The ids stay as plain values, history rather than links.
alter table audit_event
    drop constraint audit_event_tournament_id_fkey,
    drop constraint audit_event_user_id_fkey;

-- Versions for compare-and-set: a write that names the version it read replaces exactly that
-- state, or is refused with 409. The section's version counts changes of its settings, a
-- registration's every change, a round's every change to its boards or status.
alter table section add column version integer not null default 0;
alter table registration add column version integer not null default 0;
alter table round add column version integer not null default 0;

-- The arbiter's decision for entrants still tied after the whole tiebreak chain (no LOT in
-- it) where the order matters: a drawing of lots by the server (its seed kept, so anyone can
-- redraw it) or an explicit order. One decision covers one tied group; it applies while those
-- entrants are still tied with each other and with nobody else.
create table tie_order
(
    section_id    uuid not null references section (section_id) on delete cascade,
    entrant_id    uuid not null references entrant (entrant_id) on delete cascade,
    decision_id   uuid not null,
    position      integer not null,
    method        text not null,
    seed          text,
    decided_at    timestamptz not null default now(),
    constraint tie_order_pkey primary key (section_id, entrant_id),
    constraint tie_order_position_check check (position >= 1),
    constraint tie_order_method_check check (method in ('lot', 'manual')),
    constraint tie_order_seed_check check ((method = 'lot') = (seed is not null))
);
create index tie_order_decision_id_idx on tie_order (decision_id);

-- Every change of a registration or a round bumps its version, whichever statement makes it.
create or replace function bump_version() returns trigger as $$
begin
    new.version := old.version + 1;
    return new;
end;
$$ language plpgsql;
create trigger registration_bump_version before update on registration
    for each row when (old is distinct from new) execute procedure bump_version();
create trigger round_bump_version before update on round
    for each row when (old is distinct from new) execute procedure bump_version();
