-- Self-report (SPEC §5, issue #16): players report their own result with the board's secret
-- code from the result slip; the desk accepts it. Nothing a player reports counts until then.

-- The board's report code: 12 hex digits (48 random bits) of a v4 UUID's random part (the
-- version digit is the 13th). Shown as XXXX-XXXX-XXXX on the slip and in its QR code.
alter table board add column report_code text not null
    default upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 12));
alter table board add constraint board_report_code_key unique (report_code);
alter table board add constraint board_report_code_check check (report_code ~ '^[0-9A-F]{12}$');

-- What a section does with agreeing reports: nothing (self-report off), the desk's queue
-- (one key accepts), or accepted on agreement.
alter table section add column self_report text not null default 'desk';
alter table section add constraint section_self_report_check
    check (self_report in ('off', 'desk', 'agreement'));

-- One side's report of a board's game. A side reporting again replaces its own report; the
-- rows of a board are resolved together (accepted, dismissed by the desk, or superseded by a
-- result the desk entered) and then kept for the record.
create table result_report
(
    report_id    uuid primary key default gen_random_uuid(),
    board_id     uuid not null references board (board_id) on delete cascade,
    side         text not null,
    result       text not null,
    red_fouls    integer not null default 0,
    black_fouls  integer not null default 0,
    reported_at  timestamptz not null default now(),
    resolved_at  timestamptz,
    resolution   text,
    constraint result_report_side_check check (side in ('red', 'black')),
    constraint result_report_result_check check (result in
        ('red_wins', 'black_wins', 'draw', 'red_forfeits', 'black_forfeits', 'double_forfeit')),
    constraint result_report_fouls_check check (red_fouls between 0 and 99 and black_fouls between 0 and 99),
    constraint result_report_resolution_check check (
        (resolved_at is null and resolution is null)
        or (resolved_at is not null and resolution in ('accepted', 'dismissed', 'superseded')))
);
-- One open report per side and board.
create unique index result_report_open_key on result_report (board_id, side) where resolved_at is null;
create index result_report_board_id_idx on result_report (board_id);
