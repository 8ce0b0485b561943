-- The outbox at scale (issue #37): an event sent to many webhooks keeps its body once.
-- A round's `round.published` carries the whole pairing; with 1,000 webhooks the rows held
-- 1,000 copies of it, written in the publication's transaction. Now the body is one
-- `outbox_body` row and each webhook's message refers to it (`payload` stays `{}`).
create table outbox_body
(
    body_id       uuid primary key default gen_random_uuid(),
    tournament_id uuid        not null references tournament (tournament_id) on delete cascade,
    payload       jsonb       not null,
    created_at    timestamptz not null default now()
);
create index outbox_body_tournament_idx on outbox_body (tournament_id);
alter table outbox add column body_id uuid references outbox_body (body_id) on delete cascade;

create or replace function outbox_queue_webhooks(t uuid, ev text, ev_key text, body jsonb) returns void
    language plpgsql as
$$
declare
    b uuid;
begin
    if not exists (select 1 from webhook w where w.tournament_id = t and w.active) then
        return;
    end if;
    insert into outbox_body (tournament_id, payload) values (t, body) returning body_id into b;
    insert into outbox (tournament_id, event, event_key, channel, recipient, payload, body_id)
    select t, ev, ev_key, 'webhook', w.webhook_id, '{}'::jsonb, b
      from webhook w
     where w.tournament_id = t and w.active
    on conflict on constraint outbox_once do nothing;
end;
$$;
