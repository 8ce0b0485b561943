-- Players are told when the schedule slips (issue #37): a round's planned start that changes
-- (not its first planning, not its removal) queues one push message per subscription of each
-- of the section's active players, in the transaction of the change, as the publication does. What
-- it says is what the player's page shows: the event, the section, the round and its new
-- start (in the event's zone). Once per change (`sequence` counts the changes of a start).
create function outbox_schedule_push() returns trigger
    language plpgsql as
$$
begin
    insert into outbox (tournament_id, event, event_key, channel, recipient, payload)
    select t.tournament_id, 'schedule.changed',
           'schedule:' || new.section_id || ':' || new.number || ':' || new.sequence, 'push',
           ps.subscription_id,
           jsonb_build_object(
               'kind', 'schedule', 'tournament', t.name, 'section', s.name,
               'section_id', s.section_id, 'round', new.number, 'time_zone', t.time_zone,
               'starts_at', new.starts_at, 'bye', false)
      from section s
      join tournament t on t.tournament_id = s.tournament_id
      join entrant e on e.section_id = s.section_id
      join push_subscription ps on ps.entrant_id = e.entrant_id
     where s.section_id = new.section_id and e.status = 'active'
    on conflict on constraint outbox_once do nothing;
    return new;
end;
$$;
create trigger round_schedule_push
    after update of starts_at on round_schedule
    for each row
    when (old.starts_at is not null and new.starts_at is not null
          and old.starts_at is distinct from new.starts_at)
execute function outbox_schedule_push();
