-- Money at the desk (issue #15): a ledger of payments and refunds per registration, with
-- their method; a wrong entry is voided (kept, marked, with its reason), never deleted. The
-- registration's payment_state is derived from it by the service after every entry.
create table payment
(
    payment_id      uuid primary key default gen_random_uuid(),
    registration_id uuid not null references registration (registration_id) on delete cascade,
    kind            text not null,
    amount          integer not null,
    method          text not null,
    note            text,
    voided          boolean not null default false,
    void_reason     text,
    voided_at       timestamptz,
    created_at      timestamptz not null default now(),
    constraint payment_kind_check check (kind in ('payment', 'refund')),
    constraint payment_amount_check check (amount > 0),
    constraint payment_method_check check (length(trim(method)) between 1 and 100),
    constraint payment_voided_check check (voided = (voided_at is not null))
);
create index payment_registration_id_idx on payment (registration_id, created_at);

-- What was recorded before the ledger: a paid fee received in full; a refunded one received
-- and paid back.
insert into payment (registration_id, kind, amount, method, note, created_at)
select registration_id, 'payment', fee_amount, coalesce(nullif(trim(payment_method), ''), 'unknown'),
       payment_note, updated_at
from registration where payment_state in ('paid', 'refund_due', 'refunded') and fee_amount > 0;
insert into payment (registration_id, kind, amount, method, created_at)
select registration_id, 'refund', fee_amount, coalesce(nullif(trim(payment_method), ''), 'unknown'), updated_at
from registration where payment_state = 'refunded' and fee_amount > 0;

-- Entrants' details can be corrected (name, club, rating, players): a version for
-- compare-and-set, bumped by every change of the row.
alter table entrant add column version integer not null default 0;
create trigger entrant_bump_version before update on entrant
    for each row when (old is distinct from new) execute procedure bump_version();
