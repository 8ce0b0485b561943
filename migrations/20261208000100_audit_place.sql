-- Where an audit event happened, in words a dispute can use (issue #39 item 2): the section,
-- round, board and players of a game, the section and name of an entrant, and so on. Filled
-- by a trigger when the event is written, while the rows it names still exist (a round that is
-- unpaired later keeps its place in the log), whatever statement writes the event (the
-- results' hot path writes it inside the statement that stores the result).
alter table audit_event add column place jsonb;

create or replace function audit_event_place() returns trigger
    language plpgsql as
$$
begin
    if new.place is not null or new.entity_id is null then
        return new;
    end if;
    new.place := case new.entity
        when 'game' then (
            select jsonb_strip_nulls(jsonb_build_object(
                'section', s.name, 'round', r.number, 'board', b.number,
                'ko_round', km.round, 'ko_third', case when km.third_place then true end,
                'game', case when g.match_id is not null then g.number end,
                'red', er.name, 'red_no', er.start_no, 'black', eb.name, 'black_no', eb.start_no))
            from game g
                left join board b on b.board_id = g.board_id
                left join round r on r.round_id = b.round_id
                left join knockout_match km on km.match_id = g.match_id
                left join knockout_bracket kb on kb.bracket_id = km.bracket_id
                left join section s on s.section_id = coalesce(r.section_id, kb.section_id)
                left join entrant er on er.entrant_id = g.red_entrant_id
                left join entrant eb on eb.entrant_id = g.black_entrant_id
            where g.game_id = new.entity_id)
        when 'match' then (
            select jsonb_strip_nulls(jsonb_build_object(
                'section', s.name, 'ko_round', km.round,
                'ko_third', case when km.third_place then true end,
                'red', eh.name, 'red_no', eh.start_no, 'black', el.name, 'black_no', el.start_no))
            from knockout_match km
                join knockout_bracket kb on kb.bracket_id = km.bracket_id
                left join section s on s.section_id = kb.section_id
                left join entrant eh on eh.entrant_id = km.high_entrant_id
                left join entrant el on el.entrant_id = km.low_entrant_id
            where km.match_id = new.entity_id)
        when 'round' then (
            select jsonb_build_object('section', s.name, 'round', r.number)
            from round r join section s on s.section_id = r.section_id
            where r.round_id = new.entity_id)
        when 'entrant' then (
            select jsonb_strip_nulls(jsonb_build_object(
                'section', s.name, 'entrant', e.name, 'entrant_no', e.start_no))
            from entrant e join section s on s.section_id = e.section_id
            where e.entrant_id = new.entity_id)
        when 'registration' then (
            select jsonb_build_object('section', s.name, 'entrant', p.name)
            from registration g
                join section s on s.section_id = g.section_id
                join player p on p.player_id = g.player_id
            where g.registration_id = new.entity_id)
        when 'payment' then (
            select jsonb_build_object('section', s.name, 'entrant', p.name)
            from payment y
                join registration g on g.registration_id = y.registration_id
                join section s on s.section_id = g.section_id
                join player p on p.player_id = g.player_id
            where y.payment_id = new.entity_id)
        when 'section' then (
            select jsonb_build_object('section', s.name)
            from section s where s.section_id = new.entity_id)
        end;
    return new;
end
$$;

create trigger audit_event_place before insert on audit_event
    for each row execute procedure audit_event_place();
