-- A result never changes a round's publication (issue #35): `settle_round` used to write
-- `published` whenever a game of the round was still open, so a result on a paired (draft,
-- unpublished) round published it. Results on a paired round are refused by the service
-- (409); here the settling itself never moves a paired round to `published`. A paired round
-- without any open game (byes only) still completes when the next round is paired.
create or replace function settle_round(p_round_id uuid) returns text
    language plpgsql volatile as
$$
declare
    due text;
    settled text;
begin
    perform pg_advisory_xact_lock(hashtextextended(p_round_id::text, 7919));
    select case when exists (select 1 from board b
                              where b.round_id = p_round_id
                                and (select g.result is null from game g
                                      where g.board_id = b.board_id))
                then 'published' else 'completed' end
      into due;
    -- Written (and so a WAL flush) only when the status changes, and never from the draft to
    -- published: publishing is the arbiters' act, never a result's.
    update round set status = due
     where round_id = p_round_id and status <> due
       and not (status = 'paired' and due = 'published')
    returning status into settled;
    if settled is null then
        select status into settled from round where round_id = p_round_id;
    end if;
    return settled;
end
$$;
