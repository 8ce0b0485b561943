-- The whole event model (SPEC §2–§9). Constraint names are stable: the service layer maps them
-- to field errors, so a violated rule becomes a 4xx with a message, never a 500.

-- People who log in: admins, arbiters (assigned per tournament), scorers (SPEC §13).
create table app_user
(
    user_id       uuid primary key default gen_random_uuid(),
    username      text not null,
    password_hash text not null,
    role          text not null default 'arbiter',
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    constraint app_user_username_key unique (username),
    constraint app_user_username_check check (length(username) between 1 and 64),
    constraint app_user_role_check check (role in ('admin', 'arbiter', 'scorer'))
);
select manage_updated_at('app_user');

-- Bearer tokens and browser sessions; only a hash is stored so a database leak grants nothing.
create table user_session
(
    token_hash  bytea primary key,
    user_id     uuid not null references app_user (user_id) on delete cascade,
    kind        text not null default 'api',
    created_at  timestamptz not null default now(),
    expires_at  timestamptz not null,
    constraint user_session_kind_check check (kind in ('api', 'browser'))
);
create index user_session_user_id_idx on user_session (user_id);

create table tournament
(
    tournament_id     uuid primary key default gen_random_uuid(),
    name              text not null,
    game              text not null default 'xiangqi',
    -- Free text ("10′+3″") and the TRF-26 code ("600+3").
    time_control      text,
    time_control_code text,
    venue             text,
    starts_on         date,
    ends_on           date,
    organiser         text,
    default_language  text not null default 'zh-Hant',
    -- Waiver text players must accept on the registration form (seed 002), if any.
    waiver_text       text,
    status            text not null default 'draft',
    created_at        timestamptz not null default now(),
    updated_at        timestamptz not null default now(),
    constraint tournament_name_check check (length(trim(name)) between 1 and 200),
    constraint tournament_game_check check (game in ('xiangqi', 'jieqi', 'banqi')),
    constraint tournament_default_language_check check (default_language in ('zh-Hant', 'zh-Hans', 'en')),
    constraint tournament_status_check
        check (status in ('draft', 'registration', 'running', 'finished', 'cancelled')),
    constraint tournament_dates_check check (ends_on is null or starts_on is null or ends_on >= starts_on)
);
select manage_updated_at('tournament');

-- Arbiters may write only to the tournaments they are assigned to (admins to all).
create table tournament_arbiter
(
    tournament_id uuid not null references tournament (tournament_id) on delete cascade,
    user_id       uuid not null references app_user (user_id) on delete cascade,
    constraint tournament_arbiter_pkey primary key (tournament_id, user_id)
);

-- A group inside a tournament (组别) with its own entrants, rounds, standings and prizes.
create table section
(
    section_id             uuid primary key default gen_random_uuid(),
    tournament_id          uuid not null references tournament (tournament_id) on delete cascade,
    name                   text not null,
    pairing_system         text not null default 'chinese',
    rounds                 integer not null,
    entry_type             text not null default 'individual',
    -- Points in tenths (2/1/0 is 20/10/0), exact for every scheme (SPEC §6).
    points_win             integer not null default 20,
    points_draw            integer not null default 10,
    points_loss            integer not null default 0,
    points_bye             integer not null default 20,
    points_forfeit_win     integer not null default 20,
    tiebreaks              text[] not null default '{}',
    unplayed_mode          text not null default 'cxa',
    -- Two fouls in one game lose it (RULES §1.6); configurable per event.
    foul_threshold         integer not null default 2,
    round1_order           text not null default 'registration',
    first_board_red        boolean not null default true,
    forfeit_counts_as_met  boolean not null default true,
    avoid_same_club        boolean not null default false,
    pair_checked_in_only   boolean not null default false,
    cap                    integer,
    min_entries            integer,
    registration_opens_at  timestamptz,
    registration_closes_at timestamptz,
    payment_required       boolean not null default false,
    fee_tiers              jsonb not null default '[]',
    -- Eligibility rule text and limits shown on the form (students sections, seed 004).
    eligibility            jsonb not null default '{}',
    setup_mode             text not null default 'none',
    status                 text not null default 'open',
    created_at             timestamptz not null default now(),
    updated_at             timestamptz not null default now(),
    constraint section_tournament_id_name_key unique (tournament_id, name),
    constraint section_name_check check (length(trim(name)) between 1 and 200),
    constraint section_pairing_system_check check (pairing_system in ('chinese', 'dutch', 'round_robin')),
    constraint section_rounds_check check (rounds between 1 and 99),
    constraint section_entry_type_check check (entry_type in ('individual', 'doubles')),
    constraint section_points_check check (points_win >= points_draw and points_draw >= points_loss
        and points_loss >= 0 and points_bye >= 0 and points_forfeit_win >= 0),
    constraint section_unplayed_mode_check check (unplayed_mode in ('cxa', 'fide2023', 'fide2026', 'none')),
    constraint section_foul_threshold_check check (foul_threshold >= 1),
    constraint section_round1_order_check check (round1_order in ('registration', 'rating', 'lot')),
    constraint section_cap_check check (cap is null or cap >= 2),
    constraint section_min_entries_check check (min_entries is null or min_entries >= 0),
    constraint section_registration_window_check
        check (registration_closes_at is null or registration_opens_at is null
            or registration_closes_at > registration_opens_at),
    constraint section_setup_mode_check check (setup_mode in ('none', 'duplicate', 'per_board')),
    constraint section_status_check check (status in ('open', 'running', 'finished', 'cancelled'))
);
create index section_tournament_id_idx on section (tournament_id);
select manage_updated_at('section');

-- A person. Contact data lives only here and is shown to the tournament's arbiters only.
create table player
(
    player_id     uuid primary key default gen_random_uuid(),
    tournament_id uuid not null references tournament (tournament_id) on delete cascade,
    name          text not null,
    gender        text,
    club          text,
    rating        integer,
    member        boolean not null default false,
    email         text,
    phone         text,
    address       text,
    birth_date    date,
    school_grade  text,
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    constraint player_name_check check (length(trim(name)) between 1 and 200),
    constraint player_gender_check check (gender is null or gender in ('m', 'f', 'x')),
    constraint player_rating_check check (rating is null or rating between 0 and 4000)
);
create index player_tournament_id_idx on player (tournament_id);
select manage_updated_at('player');

-- Who is paired: one player, or a doubles team of two (SPEC §2). The starting number (序号) is
-- fixed once round 1 is paired.
create table entrant
(
    entrant_id    uuid primary key default gen_random_uuid(),
    section_id    uuid not null references section (section_id) on delete cascade,
    start_no      integer,
    name          text not null,
    rating        integer,
    club          text,
    status        text not null default 'active',
    checked_in    boolean not null default false,
    -- Registration order decides round-1 numbering by default (seed 002).
    seq           bigint generated always as identity,
    -- First round this entrant can be paired in (late entries join after round 1).
    joined_round  integer not null default 1,
    withdrawn_from_round integer,
    created_at    timestamptz not null default now(),
    updated_at    timestamptz not null default now(),
    constraint entrant_section_id_start_no_key unique (section_id, start_no),
    constraint entrant_start_no_check check (start_no is null or start_no >= 1),
    constraint entrant_name_check check (length(trim(name)) between 1 and 200),
    constraint entrant_rating_check check (rating is null or rating between 0 and 4000),
    constraint entrant_status_check check (status in ('active', 'withdrawn')),
    constraint entrant_joined_round_check check (joined_round >= 1),
    constraint entrant_withdrawn_check check ((status = 'withdrawn') = (withdrawn_from_round is not null))
);
create index entrant_section_id_idx on entrant (section_id);
select manage_updated_at('entrant');

-- The player(s) of an entrant: position 1 for individuals, 1 and 2 for doubles teams.
create table entrant_member
(
    entrant_id uuid not null references entrant (entrant_id) on delete cascade,
    position   smallint not null,
    player_id  uuid not null references player (player_id) on delete cascade,
    constraint entrant_member_pkey primary key (entrant_id, position),
    constraint entrant_member_position_check check (position in (1, 2))
);
create index entrant_member_player_id_idx on entrant_member (player_id);

-- An application to a section (SPEC §3), with its place in the queue for the cap and waitlist.
create table registration
(
    registration_id uuid primary key default gen_random_uuid(),
    section_id      uuid not null references section (section_id) on delete cascade,
    entrant_id      uuid references entrant (entrant_id) on delete set null,
    player_id       uuid not null references player (player_id) on delete cascade,
    partner_id      uuid references player (player_id) on delete set null,
    seq             bigint generated always as identity,
    status          text not null default 'pending',
    fee_tier        text,
    fee_amount      integer not null default 0,
    payment_state   text not null default 'unpaid',
    payment_method  text,
    payment_note    text,
    waiver_accepted boolean not null default false,
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint registration_status_check
        check (status in ('pending', 'confirmed', 'waitlisted', 'withdrawn', 'cancelled')),
    constraint registration_fee_amount_check check (fee_amount >= 0),
    constraint registration_payment_state_check
        check (payment_state in ('unpaid', 'paid', 'refund_due', 'refunded'))
);
create index registration_section_id_idx on registration (section_id, seq);
select manage_updated_at('registration');

-- Byes an entrant asked for in advance (SPEC §4), and absences the arbiter records.
create table requested_bye
(
    entrant_id uuid not null references entrant (entrant_id) on delete cascade,
    round      integer not null,
    kind       text not null,
    constraint requested_bye_pkey primary key (entrant_id, round),
    constraint requested_bye_round_check check (round >= 1),
    constraint requested_bye_kind_check check (kind in ('half', 'zero', 'full'))
);

-- Pairs the arbiter has forbidden (same family, club, …). Stored once, lower id first.
create table forbidden_pair
(
    section_id   uuid not null references section (section_id) on delete cascade,
    entrant_a_id uuid not null references entrant (entrant_id) on delete cascade,
    entrant_b_id uuid not null references entrant (entrant_id) on delete cascade,
    constraint forbidden_pair_pkey primary key (entrant_a_id, entrant_b_id),
    constraint forbidden_pair_order_check check (entrant_a_id < entrant_b_id)
);

-- A Swiss round: paired → published → completed (SPEC §2). The engine's pairing and report
-- are kept so that manual edits can be audited against the original.
create table round
(
    round_id        uuid primary key default gen_random_uuid(),
    section_id      uuid not null references section (section_id) on delete cascade,
    number          integer not null,
    status          text not null default 'paired',
    pairing_report  jsonb not null default '{}',
    engine_pairing  jsonb not null default '[]',
    created_at      timestamptz not null default now(),
    updated_at      timestamptz not null default now(),
    constraint round_section_id_number_key unique (section_id, number),
    constraint round_number_check check (number >= 1),
    constraint round_status_check check (status in ('paired', 'published', 'completed'))
);
select manage_updated_at('round');

-- A board (台次): Red moves first; no Black means a pairing-allocated bye (轮空).
create table board
(
    board_id         uuid primary key default gen_random_uuid(),
    round_id         uuid not null references round (round_id) on delete cascade,
    number           integer not null,
    red_entrant_id   uuid not null references entrant (entrant_id),
    black_entrant_id uuid references entrant (entrant_id),
    constraint board_round_id_number_key unique (round_id, number),
    constraint board_number_check check (number >= 1),
    constraint board_distinct_sides_check check (red_entrant_id <> black_entrant_id)
);
create index board_red_entrant_id_idx on board (red_entrant_id);
create index board_black_entrant_id_idx on board (black_entrant_id);

-- A knockout bracket seeded from the Swiss standings (SPEC §7), or a playoff between sections.
create table knockout_bracket
(
    bracket_id     uuid primary key default gen_random_uuid(),
    tournament_id  uuid not null references tournament (tournament_id) on delete cascade,
    section_id     uuid references section (section_id) on delete cascade,
    kind           text not null default 'knockout',
    size           integer not null,
    best_of        integer not null default 3,
    third_place    boolean not null default false,
    game1_colour   text not null default 'lot',
    decide_by      text not null default 'points',
    created_at     timestamptz not null default now(),
    constraint knockout_bracket_kind_check check (kind in ('knockout', 'playoff')),
    constraint knockout_bracket_size_check check (size between 2 and 64 and (size & (size - 1)) = 0),
    constraint knockout_bracket_best_of_check check (best_of between 1 and 9),
    constraint knockout_bracket_game1_colour_check check (game1_colour in ('lot', 'higher_seed')),
    constraint knockout_bracket_decide_by_check check (decide_by in ('points', 'wins'))
);
create unique index knockout_bracket_section_id_key on knockout_bracket (section_id) where kind = 'knockout';

create table knockout_match
(
    match_id         uuid primary key default gen_random_uuid(),
    bracket_id       uuid not null references knockout_bracket (bracket_id) on delete cascade,
    round            integer not null,
    slot             integer not null,
    third_place      boolean not null default false,
    high_entrant_id  uuid references entrant (entrant_id),
    high_seed        integer,
    low_entrant_id   uuid references entrant (entrant_id),
    low_seed         integer,
    winner_entrant_id uuid references entrant (entrant_id),
    constraint knockout_match_bracket_id_round_slot_key unique (bracket_id, round, slot, third_place),
    constraint knockout_match_round_check check (round >= 1),
    constraint knockout_match_slot_check check (slot >= 1),
    constraint knockout_match_winner_check
        check (winner_entrant_id is null or winner_entrant_id in (high_entrant_id, low_entrant_id))
);

-- One game: the only game of a Swiss board, or one of a knockout match's games.
create table game
(
    game_id          uuid primary key default gen_random_uuid(),
    board_id         uuid references board (board_id) on delete cascade,
    match_id         uuid references knockout_match (match_id) on delete cascade,
    number           integer not null default 1,
    kind             text not null default 'regular',
    red_entrant_id   uuid not null references entrant (entrant_id),
    black_entrant_id uuid not null references entrant (entrant_id),
    -- What the players reported / the arbiter entered …
    reported_result  text,
    -- … and what counts after the foul rule (a side at the threshold loses, SPEC §5).
    result           text,
    -- Optimistic locking: a stale edit (If-Match) is rejected with 409.
    version          integer not null default 0,
    created_at       timestamptz not null default now(),
    updated_at       timestamptz not null default now(),
    constraint game_owner_check check ((board_id is null) <> (match_id is null)),
    constraint game_board_id_key unique (board_id),
    constraint game_match_id_number_key unique (match_id, number),
    constraint game_number_check check (number >= 1),
    constraint game_kind_check check (kind in ('regular', 'rapid', 'armageddon')),
    constraint game_result_check check (result is null or result in
        ('red_wins', 'black_wins', 'draw', 'red_forfeits', 'black_forfeits', 'double_forfeit', 'double_loss')),
    constraint game_reported_result_check check (reported_result is null or reported_result in
        ('red_wins', 'black_wins', 'draw', 'red_forfeits', 'black_forfeits', 'double_forfeit', 'double_loss')),
    constraint game_distinct_sides_check check (red_entrant_id <> black_entrant_id)
);
create index game_match_id_idx on game (match_id);
select manage_updated_at('game');

-- Technical fouls (技术犯规), one row per foul so each can carry a note ("7th chase").
create table foul
(
    foul_id     uuid primary key default gen_random_uuid(),
    game_id     uuid not null references game (game_id) on delete cascade,
    side        text not null,
    note        text,
    recorded_at timestamptz not null default now(),
    constraint foul_side_check check (side in ('red', 'black'))
);
create index foul_game_id_idx on foul (game_id);

-- A hidden-piece set-up (Jieqi/Banqi, SPEC §9): committed before play, revealed after.
create table setup
(
    setup_id    uuid primary key default gen_random_uuid(),
    section_id  uuid not null references section (section_id) on delete cascade,
    round_id    uuid references round (round_id) on delete cascade,
    board_id    uuid references board (board_id) on delete cascade,
    game_id     uuid references game (game_id) on delete cascade,
    variant     text not null,
    canonical   text not null,
    salt        text not null,
    commitment  text not null,
    revealed_at timestamptz,
    created_at  timestamptz not null default now(),
    constraint setup_variant_check check (variant in ('jieqi', 'banqi')),
    constraint setup_commitment_check check (commitment ~ '^[0-9a-f]{64}$')
);
create index setup_round_id_idx on setup (round_id);

-- Prize table rows: a place range or a category (best woman, best junior …) → award.
create table prize
(
    prize_id    uuid primary key default gen_random_uuid(),
    section_id  uuid not null references section (section_id) on delete cascade,
    place_from  integer,
    place_to    integer,
    category    text,
    award       text not null,
    amount      integer not null default 0,
    constraint prize_places_check check ((place_from is null and place_to is null)
        or (place_from >= 1 and place_to >= place_from)),
    constraint prize_target_check check (place_from is not null or category is not null),
    constraint prize_amount_check check (amount >= 0)
);
create index prize_section_id_idx on prize (section_id);

-- Who changed what, when, before and after (SPEC §2). Append-only, enforced by trigger.
create table audit_event
(
    audit_id      bigint generated always as identity primary key,
    tournament_id uuid references tournament (tournament_id) on delete cascade,
    user_id       uuid references app_user (user_id) on delete set null,
    actor         text not null,
    action        text not null,
    entity        text not null,
    entity_id     uuid,
    before        jsonb,
    after         jsonb,
    at            timestamptz not null default now()
);
create index audit_event_tournament_id_idx on audit_event (tournament_id, audit_id);
create trigger audit_event_append_only before update or delete on audit_event
    for each row execute procedure refuse_change();
