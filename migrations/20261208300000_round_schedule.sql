-- The round schedule (issue #37): each round's planned start, entered in the event's time zone
-- and stored in UTC. A row per scheduled round of a section, made before the round is paired
-- (a round row exists only once paired). `sequence` counts the changes of the start (the
-- calendars' SEQUENCE); a removed start keeps its row with a null time, so that a start set
-- again later still counts up.
create table round_schedule
(
    section_id uuid        not null references section (section_id) on delete cascade,
    number     integer     not null,
    starts_at  timestamptz,
    sequence   integer     not null default 0,
    updated_at timestamptz not null default now(),
    constraint round_schedule_pkey primary key (section_id, number),
    constraint round_schedule_number_check check (number between 1 and 99),
    constraint round_schedule_sequence_check check (sequence >= 0)
);
