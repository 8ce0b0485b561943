-- Telling the players (issue #37): webhooks per tournament and the outbox.
--
-- A webhook is an integrator's endpoint (a LINE, WeChat or Telegram bot): each event of its
-- tournament is POSTed to its URL as JSON signed with its secret (HMAC-SHA256).
create table webhook
(
    webhook_id    uuid primary key default gen_random_uuid(),
    tournament_id uuid        not null references tournament (tournament_id) on delete cascade,
    url           text        not null,
    secret        text        not null,
    active        boolean     not null default true,
    created_at    timestamptz not null default now(),
    constraint webhook_url_check check (length(url) between 8 and 2000 and url ~ '^https?://'),
    constraint webhook_secret_check check (length(secret) between 16 and 200)
);
create index webhook_tournament_idx on webhook (tournament_id);

-- Every message is a row, written in the transaction of the change that causes it, and
-- delivered by the workers. One row per recipient and event at most (`outbox_once`): a
-- change written twice queues nothing new. A worker claims due rows with FOR UPDATE SKIP
-- LOCKED and a lease (`locked_until`, `claimed_by`); only the claimant may settle a row, and a
-- lease that runs out (its worker died) lets another worker take the row again.
create table outbox
(
    outbox_id       uuid primary key default gen_random_uuid(),
    tournament_id   uuid        not null references tournament (tournament_id) on delete cascade,
    event           text        not null,
    event_key       text        not null,
    channel         text        not null,
    recipient       uuid        not null,
    payload         jsonb       not null,
    status          text        not null default 'pending',
    attempts        integer     not null default 0,
    next_attempt_at timestamptz not null default now(),
    locked_until    timestamptz,
    claimed_by      uuid,
    last_error      text,
    created_at      timestamptz not null default now(),
    sent_at         timestamptz,
    constraint outbox_once unique (channel, recipient, event_key),
    constraint outbox_channel_check check (channel in ('webhook', 'email', 'push')),
    constraint outbox_status_check check (status in ('pending', 'sent', 'failed'))
);
create index outbox_due_idx on outbox (next_attempt_at) where status = 'pending';
create index outbox_tournament_idx on outbox (tournament_id, status);

-- The events, queued by triggers in the transaction of the change itself, whatever path made
-- it (the desk, the API, an accepted report): one row per active webhook of the tournament.
-- What they carry is public (what the public pages show once the round is published).
create function outbox_queue_webhooks(t uuid, ev text, ev_key text, body jsonb) returns void
    language sql as
$$
insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
select t, ev, ev_key, 'webhook', w.webhook_id, body
  from webhook w
 where w.tournament_id = t and w.active
on conflict on constraint outbox_once do nothing;
$$;

create function outbox_side(e uuid) returns jsonb
    language sql stable as
$$
select jsonb_build_object('start_no', start_no, 'name', name) from entrant where entrant_id = e;
$$;

-- A round published: its boards.
create function outbox_round_published() returns trigger
    language plpgsql as
$$
declare
    t uuid;
    body jsonb;
begin
    select s.tournament_id into t from section s where s.section_id = new.section_id;
    if not exists (select 1 from webhook w where w.tournament_id = t and w.active) then
        return new;
    end if;
    select jsonb_build_object(
               'tournament_id', t, 'section_id', new.section_id, 'round', new.number,
               'starts_at', (select rs.starts_at from round_schedule rs
                              where rs.section_id = new.section_id and rs.number = new.number),
               'boards', coalesce(jsonb_agg(jsonb_build_object(
                   'board', b.number, 'red', outbox_side(b.red_entrant_id),
                   'black', case when b.black_entrant_id is null then null
                                 else outbox_side(b.black_entrant_id) end)
                   order by b.number), '[]'::jsonb))
      into body
      from board b where b.round_id = new.round_id;
    perform outbox_queue_webhooks(t, 'round.published', 'round_published:' || new.round_id, body);
    return new;
end;
$$;
create trigger round_published_outbox
    after update of status on round
    for each row
    when (old.status = 'paired' and new.status = 'published')
execute function outbox_round_published();

-- A result accepted (the first) or corrected (any later change).
create function outbox_result() returns trigger
    language plpgsql as
$$
declare
    t uuid;
    s uuid;
    rn integer;
    bn integer;
begin
    select sec.tournament_id, r.section_id, r.number, b.number into t, s, rn, bn
      from board b join round r on r.round_id = b.round_id
      join section sec on sec.section_id = r.section_id
     where b.board_id = new.board_id;
    if t is null or not exists (select 1 from webhook w where w.tournament_id = t and w.active) then
        return new;
    end if;
    perform outbox_queue_webhooks(
        t,
        case when old.result is null then 'result.accepted' else 'result.corrected' end,
        'result:' || new.game_id || ':' || new.version,
        jsonb_build_object('tournament_id', t, 'section_id', s, 'round', rn, 'board', bn,
                           'result', new.result, 'previous_result', old.result,
                           'red', outbox_side(new.red_entrant_id),
                           'black', outbox_side(new.black_entrant_id)));
    return new;
end;
$$;
create trigger game_result_outbox
    after update of result on game
    for each row
    when (old.result is distinct from new.result and new.board_id is not null)
execute function outbox_result();

-- A round's planned start set or changed.
create function outbox_schedule() returns trigger
    language plpgsql as
$$
declare
    t uuid;
begin
    select s.tournament_id into t from section s where s.section_id = new.section_id;
    perform outbox_queue_webhooks(
        t, 'schedule.changed',
        'schedule:' || new.section_id || ':' || new.number || ':' || new.sequence,
        jsonb_build_object('tournament_id', t, 'section_id', new.section_id, 'round', new.number,
                           'starts_at', new.starts_at));
    return new;
end;
$$;
create trigger round_schedule_outbox
    after insert or update of starts_at on round_schedule
    for each row
execute function outbox_schedule();

-- Self check-in opened.
create function outbox_check_in() returns trigger
    language plpgsql as
$$
begin
    perform outbox_queue_webhooks(
        new.tournament_id, 'check_in.opened',
        'check_in:' || new.section_id || ':' || gen_random_uuid(),
        jsonb_build_object('tournament_id', new.tournament_id, 'section_id', new.section_id,
                           'opens_at', new.check_in_opens_at, 'closes_at', new.check_in_closes_at));
    return new;
end;
$$;
create trigger section_check_in_outbox
    after update of self_check_in on section
    for each row
    when (not old.self_check_in and new.self_check_in)
execute function outbox_check_in();
