-- Each event has an IANA time zone (issue #15): times are entered and shown in it, stored in
-- UTC. Events made before keep UTC, the zone their times were entered in.
alter table tournament
    add column time_zone text not null default 'UTC',
    add constraint tournament_time_zone_check check (time_zone ~ '^[A-Za-z0-9_+/-]{1,64}$');
