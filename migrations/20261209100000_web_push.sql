-- Web push (issue #37, RFC 8030 / 8291 / 8292).
--
-- The server's VAPID key pair (P-256), made on first start and kept here: one row. The
-- private key is the 32-byte scalar, the public key the uncompressed point, both base64url.
create table vapid_key
(
    id          boolean primary key default true,
    private_key text        not null,
    public_key  text        not null,
    created_at  timestamptz not null default now(),
    constraint vapid_key_one check (id)
);

-- A player's browser subscribed through their key (`/k/{key}` or
-- `POST /api/v1/keys/{key}/push`): the push service's endpoint and the browser's keys
-- (`p256dh`, the browser's P-256 public key; `auth`, the 16-byte secret), and the language
-- its notifications are written in. A push service that answers 404 or 410 removes it.
create table push_subscription
(
    subscription_id uuid primary key default gen_random_uuid(),
    entrant_id      uuid        not null references entrant (entrant_id) on delete cascade,
    endpoint        text        not null,
    p256dh          text        not null,
    auth            text        not null,
    lang            text        not null,
    created_at      timestamptz not null default now(),
    constraint push_subscription_once unique (entrant_id, endpoint),
    constraint push_subscription_endpoint_check check (length(endpoint) between 8 and 2000
        and endpoint ~ '^https?://'),
    constraint push_subscription_p256dh_check check (p256dh ~ '^[A-Za-z0-9_-]{80,100}={0,2}$'),
    constraint push_subscription_auth_check check (auth ~ '^[A-Za-z0-9_-]{16,30}={0,2}$'),
    constraint push_subscription_lang_check check (lang in ('zh-Hant', 'zh-Hans', 'en'))
);

-- What a player is told of a published round: only what their own page (`/k/{key}`) shows
-- (the event, the section, the round's number and planned start, their board, colour and
-- opponent, or their bye). One row per entrant with a board in the round.
create function outbox_player_rounds(r uuid)
    returns table (entrant_id uuid, tournament_id uuid, payload jsonb)
    language sql stable as
$$
select x.me, s.tournament_id,
       jsonb_build_object(
           'tournament', t.name, 'section', s.name, 'section_id', s.section_id,
           'round', rd.number, 'time_zone', t.time_zone,
           'starts_at', (select rs.starts_at from round_schedule rs
                          where rs.section_id = rd.section_id and rs.number = rd.number),
           'board', case when x.opp is null then null else b.number end,
           'side', case when x.opp is null then null else x.side end,
           'bye', x.opp is null,
           'opponent', case when x.opp is null then null
                            else jsonb_build_object('start_no', o.start_no, 'name', o.name) end)
  from round rd
  join section s on s.section_id = rd.section_id
  join tournament t on t.tournament_id = s.tournament_id
  join board b on b.round_id = rd.round_id
  cross join lateral (values (b.red_entrant_id, 'red', b.black_entrant_id),
                             (b.black_entrant_id, 'black', b.red_entrant_id)) as x(me, side, opp)
  left join entrant o on o.entrant_id = x.opp
 where rd.round_id = r and x.me is not null;
$$;

-- A round published: one push message per subscription of each of its players, in the
-- publication's transaction (one statement).
create function outbox_round_published_push() returns trigger
    language plpgsql as
$$
begin
    insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
    select p.tournament_id, 'round.published', 'round_published:' || new.round_id, 'push',
           ps.subscription_id, p.payload
      from outbox_player_rounds(new.round_id) p
      join push_subscription ps on ps.entrant_id = p.entrant_id
    on conflict on constraint outbox_once do nothing;
    return new;
end;
$$;
create trigger round_published_push
    after update of status on round
    for each row
    when (old.status = 'paired' and new.status = 'published')
execute function outbox_round_published_push();
